import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../contract/rate-limit';

/** A start setting that cannot work; its message is one sentence naming the variable. */
export class StartConfigError extends Error {
  override readonly name: string = 'StartConfigError';
}

/** Both loopbacks: `localhost` may resolve to either, and nothing beyond this machine reaches them. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '::1'];

const quoted = (value: string) => JSON.stringify(value);

/** DynamoDB's rule for a table name: 3 to 255 letters, digits, `_`, `-` or `.`. */
const TABLE_NAME_PATTERN = /^[a-zA-Z0-9_.-]{3,255}$/;

/** The table `npm start` creates and uses: `TABLE_NAME`, checked by DynamoDB's rule before anything starts. */
export const readTableName = (value: string | undefined): string => {
  const name = value || 'secrets-service-local';
  if (!TABLE_NAME_PATTERN.test(name)) {
    throw new StartConfigError(
      `TABLE_NAME must be 3 to 255 letters, digits, "_", "-" or ".", as DynamoDB requires, got ${quoted(name)}.`,
    );
  }
  return name;
};

/** What a socket error's code means to someone who set DYNAMODB_ENDPOINT. */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing listens there',
  ECONNRESET: 'the connection was closed',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name does not resolve',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'it did not answer in time',
};

/**
 * The one-sentence error for a `DYNAMODB_ENDPOINT` that cannot be reached, or `undefined` when
 * `error` is something else (DynamoDB answered, and refused).
 */
export const unreachableEndpoint = (error: unknown, endpoint: string): StartConfigError | undefined => {
  const code = (error as { code?: unknown }).code;
  const why = typeof code === 'string' ? UNREACHABLE[code] : undefined;
  if (why === undefined) return undefined;
  return new StartConfigError(
    `No DynamoDB answers at DYNAMODB_ENDPOINT ${endpoint} (${why}): start it, or unset DYNAMODB_ENDPOINT to let npm start run DynamoDB Local.`,
  );
};

/** Requests one credential may send per minute: `RATE_LIMIT_PER_MINUTE`, a whole number of at least 1 (default 600). */
export const readRateLimitPerMinute = (value: string | undefined): number => {
  if (value === undefined || value === '') return DEFAULT_RATE_LIMIT_PER_MINUTE;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new StartConfigError(`RATE_LIMIT_PER_MINUTE must be a whole number of at least 1, got ${quoted(value)}.`);
  }
  return Number(value);
};
