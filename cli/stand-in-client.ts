import { ErrorText } from '../contract/errors';

/**
 * A stand-in for the typed client of `client/` (being built on another branch), with its interface,
 * so that the command line switches to it by changing the one import in ./client.ts. It speaks the
 * API over `fetch`, retries 429 and 503 honouring `Retry-After`, and times out each request.
 */

/** Who wrote a version. */
export interface Person {
  readonly userId: string;
  readonly email: string | null;
}

/** A secret at its current version, without its value. */
export interface SecretMeta {
  readonly name: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: Person;
}

/** A secret with its value. */
export interface SecretWithValue extends SecretMeta {
  readonly value: string;
}

/** One version of a secret's history. */
export interface SecretVersion {
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: Person;
  readonly deleted: boolean;
}

/** One secret a batch changed. */
export interface SecretChange extends SecretVersion {
  readonly name: string;
}

/** An environment of a project. */
export interface Environment {
  readonly name: string;
  readonly createdAt: string;
  readonly secretCount: number;
}

/** A refusal or failure the API answered: its status and its own error text. */
export class SecretsApiError extends Error {
  override readonly name = 'SecretsApiError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details?: readonly { path: string; message: string }[],
  ) {
    super(`${status} ${error}`);
  }
}

/** The API could not be reached: a connection error or a timeout. */
export class SecretsNetworkError extends Error {
  override readonly name = 'SecretsNetworkError';
}

/** How to reach the API. */
export interface ClientOptions {
  /** The API's base URL, without `/api/v1`. */
  readonly apiUrl: string;
  /** A `svc_live_` token. */
  readonly token: string;
  readonly timeoutMs?: number;
  /** Further attempts after a 429 or 503. */
  readonly retries?: number;
  /** Keeps `export` answers in memory this long. */
  readonly cacheTtlMs?: number;
  readonly fetch?: typeof fetch;
}

const RETRIED = new Set([429, 503]);
const MAX_RETRY_WAIT_MS = 30_000;

const retryWait = (header: string | null, attempt: number): number => {
  const seconds = Number(header);
  if (header !== null && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
  const date = header === null ? Number.NaN : Date.parse(header);
  if (Number.isFinite(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_WAIT_MS);
  return Math.min(500 * 2 ** attempt, MAX_RETRY_WAIT_MS);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of the secrets routes with the typed client's interface. */
export const createClient = ({
  apiUrl,
  token,
  timeoutMs = 10_000,
  retries = 3,
  cacheTtlMs,
  fetch: fetcher = fetch,
}: ClientOptions) => {
  const base = apiUrl.replace(/\/+$/, '');
  const exportCache = new Map<string, { at: number; values: Record<string, string> }>();

  const request = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> => {
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetcher(`${base}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const cause =
          error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : 'failed';
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        throw new SecretsNetworkError(timedOut ? `no answer within ${timeoutMs} ms` : cause);
      }
      if (RETRIED.has(response.status) && attempt < retries) {
        await response.body?.cancel();
        await sleep(retryWait(response.headers.get('Retry-After'), attempt));
        continue;
      }
      const text = await response.text();
      let parsed: { data?: T; error?: string; details?: { path: string; message: string }[] } | undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!response.ok) {
        throw new SecretsApiError(
          response.status,
          parsed?.error ?? (response.status >= 500 ? ErrorText.internal : `HTTP ${response.status}`),
          parsed?.details,
        );
      }
      return { status: response.status, data: parsed?.data as T };
    }
  };

  const env = (projectId: string, environment: string) =>
    `/api/v1/projects/${encodeURIComponent(projectId)}/environments/${encodeURIComponent(environment)}`;
  const secret = (projectId: string, environment: string, name: string) =>
    `${env(projectId, environment)}/secrets/${encodeURIComponent(name)}`;

  return {
    environments: async (projectId: string) =>
      (await request<Environment[]>('GET', `/api/v1/projects/${encodeURIComponent(projectId)}/environments`)).data,
    list: async (projectId: string, environment: string) =>
      (await request<SecretMeta[]>('GET', `${env(projectId, environment)}/secrets`)).data,
    get: async (projectId: string, environment: string, name: string, version?: number) =>
      (
        await request<SecretWithValue>(
          'GET',
          `${secret(projectId, environment, name)}${version === undefined ? '' : `?version=${version}`}`,
        )
      ).data,
    set: async (
      projectId: string,
      environment: string,
      name: string,
      value: string,
      options: { expectedVersion?: number } = {},
    ) => {
      const reply = await request<SecretMeta>('PUT', secret(projectId, environment, name), {
        value,
        ...(options.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion }),
      });
      return { secret: reply.data, created: reply.status === 201 };
    },
    delete: async (projectId: string, environment: string, name: string): Promise<void> => {
      await request('DELETE', secret(projectId, environment, name));
    },
    history: async (projectId: string, environment: string, name: string) =>
      (await request<SecretVersion[]>('GET', `${secret(projectId, environment, name)}/versions`)).data,
    restore: async (projectId: string, environment: string, name: string, version: number) =>
      (await request<SecretMeta>('POST', `${secret(projectId, environment, name)}/restore`, { version })).data,
    export: async (projectId: string, environment: string): Promise<Record<string, string>> => {
      const key = `${projectId}/${environment}`;
      const cached = exportCache.get(key);
      if (cacheTtlMs !== undefined && cached && Date.now() - cached.at < cacheTtlMs) return { ...cached.values };
      const values = (await request<Record<string, string>>('GET', `${env(projectId, environment)}/export`)).data;
      if (cacheTtlMs !== undefined) exportCache.set(key, { at: Date.now(), values });
      return { ...values };
    },
    change: async (
      projectId: string,
      environment: string,
      changes: { set?: Record<string, string>; delete?: string[]; expectedVersions?: Record<string, number> },
    ) => (await request<SecretChange[]>('PATCH', `${env(projectId, environment)}/secrets`, changes)).data,
  };
};

/** The client's methods. */
export type SecretsClient = ReturnType<typeof createClient>;
