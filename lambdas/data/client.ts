import {
  BatchGetItemCommand,
  type DeleteItemCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  GetItemCommand,
  QueryCommand,
  type QueryCommandInput,
  type TransactWriteItem,
  TransactWriteItemsCommand,
  type UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TranslateConfig } from '@aws-sdk/lib-dynamodb';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { ServiceUnavailableError } from '@lambdas/domain/errors';
import { optionalUrlEnv, requiredEnv } from '@lambdas/env';
import type { ItemKey } from './keys';
import { Sha256 } from './sha256';
import { traceCalls } from './tracing';

/** Name of the service's one table. */
export const tableName = requiredEnv('TABLE_NAME');
/** Set only for DynamoDB Local. */
const endpoint = optionalUrlEnv('DYNAMODB_ENDPOINT');

/**
 * Settings of the service's DynamoDB client. Retries and timeouts: a call that stalls gives up after
 * three attempts of one second each (about 3.3 s with back-off), so even the authorizer's two calls
 * end well inside the 10 s Lambda timeout and API Gateway's 29 s. Without `throwOnRequestTimeout` the
 * SDK only logs an overdue request and keeps waiting. No `cacheMiddleware`: the document client
 * refuses it, as a cached stack would send the first command's input again. The signer hashes
 * with `Sha256` (./sha256), which leaves the garbage collector less to finalise.
 */
export const clientSettings = {
  maxAttempts: 3,
  sha256: Sha256,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_000, throwOnRequestTimeout: true },
} satisfies DynamoDBClientConfig;

/**
 * One client per container, reused across invocations (keep-alive is the SDK default); each of its
 * calls in a sampled invocation is an X-Ray subsegment.
 */
export const dynamo = new DynamoDBClient({ ...clientSettings, endpoint });
// The SDK's logger middleware copies every input and output with sensitive fields masked, for a
// logger this client never has, a cost the warm-CPU rows of `npm run bench` measure. The service
// logs its calls' outcomes itself.
dynamo.middlewareStack.remove('loggerMiddleware');
traceCalls(dynamo);

/**
 * One item's attributes, from a record spread together from its parts (keys, entity, fields). A field
 * left `undefined` is left out, as if never set. Anything but strings, numbers, booleans, null, lists
 * and maps is refused rather than guessed (no `convertClassInstanceToMap`), and so is a number
 * beyond ±(2^53 - 1) (no `allowImpreciseNumbers`), so that every number reads back exactly.
 */
export const toItem = (record: Record<string, NativeAttributeValue>) =>
  marshall(record, { removeUndefinedValues: true });

const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Whether an error means DynamoDB is throttling or out of reach (answered 503, retryable). */
const isDataUnavailable = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return UNAVAILABLE_ERRORS.has(error.name) || (typeof code === 'string' && NETWORK_CODES.has(code));
};

// Throttling and outages leave the data layer as the domain's error, so no caller above needs to know
// the SDK's error names; the original stays its cause, for the log.
dynamo.middlewareStack.add(
  (next) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      throw isDataUnavailable(error) ? new ServiceUnavailableError({ cause: error }) : error;
    }
  },
  { step: 'initialize', priority: 'high', name: 'unavailableAsDomainError' },
);

/**
 * How items convert between JavaScript and DynamoDB. A field left `undefined` is left out, as if never
 * set. Anything but strings, numbers, booleans, null, lists and maps is refused rather than guessed
 * (no `convertClassInstanceToMap`), and so is a number beyond ±(2^53 - 1) (no
 * `allowImpreciseNumbers`), so that every number reads back exactly, as a plain number.
 */
export const translateConfig = {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false, allowImpreciseNumbers: false },
  unmarshallOptions: { wrapNumbers: false },
} satisfies TranslateConfig;

/**
 * The client the repositories' calls go through: items as plain records. It is the client above
 * (settings, middleware, connections), converting each command's items on the way.
 */
export const documentClient = DynamoDBDocumentClient.from(dynamo, translateConfig);

/** Whether a transaction was cancelled because the condition of the item at `index` failed. */
export const conditionFailedAt = (error: unknown, index: number): boolean => {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    error instanceof Error &&
    error.name === 'TransactionCanceledException' &&
    reasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
};

/** Whether a single-item write failed its condition. */
export const isConditionFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Sends a single-item conditional write whose failed condition is an answer, not an error: whether
 * the write was made.
 */
export const writeIfCondition = async (command: DeleteItemCommand | UpdateItemCommand): Promise<boolean> => {
  try {
    // The client's overloads take one command class at a time; both classes send alike.
    await dynamo.send(command as DeleteItemCommand);
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

const cancellationCodes = (error: unknown): (string | undefined)[] =>
  error instanceof Error && error.name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code)
    : [];

const TRANSACTION_ATTEMPTS = 5;

/**
 * Runs a write transaction. DynamoDB cancels a transaction that races another on the same item
 * (`TransactionConflict`) without judging its conditions; those are run again after a short jittered
 * pause, so that concurrent requests end in their conditions' verdicts (409, 404) rather than errors.
 */
export const transactWrite = async (items: TransactWriteItem[]): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await dynamo.send(new TransactWriteItemsCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes.includes('TransactionConflict') || codes.includes('ConditionalCheckFailed')) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) throw new ServiceUnavailableError({ cause: error });
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
    }
  }
};

/** One item by key, as the repository's record type (the table holds only what the repositories write). */
export const getItem = async <T>(key: ItemKey, consistent: boolean): Promise<T | undefined> => {
  const { Item } = await dynamo.send(
    new GetItemCommand({ TableName: tableName, Key: marshall(key), ConsistentRead: consistent }),
  );
  return Item && (unmarshall(Item) as T);
};

/** Keys one BatchGetItem call may name. */
const BATCH_GET_LIMIT = 100;
const BATCH_GET_ROUNDS = 5;

/**
 * The items of these keys that exist, eventually consistent, in no particular order: BatchGetItem
 * in calls of at most 100 keys, asking again for keys DynamoDB left unprocessed (throttling) a few
 * times before giving up with a 503.
 */
export const batchGetItems = async <T>(keys: readonly ItemKey[]): Promise<T[]> => {
  const items: T[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
    let pending = keys.slice(start, start + BATCH_GET_LIMIT).map((key) => marshall(key));
    for (let round = 1; pending.length > 0; round += 1) {
      if (round > BATCH_GET_ROUNDS) throw new ServiceUnavailableError();
      const { Responses, UnprocessedKeys } = await dynamo.send(
        new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      for (const item of Responses?.[tableName] ?? []) items.push(unmarshall(item) as T);
      pending = UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * round));
    }
  }
  return items;
};

/** Every item of a query, following the pages to the end (lists are bounded: 100 live tokens, one item per membership). */
export const queryAll = async <T>(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<T[]> => {
  const items: T[] = [];
  let cursor: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamo.send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: cursor }));
    for (const item of page.Items ?? []) items.push(unmarshall(item) as T);
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
};
