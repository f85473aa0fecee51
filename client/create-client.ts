import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './api-types';
import { type ErrorDetail, SecretsApiError, SecretsNetworkError } from './errors';
import { isShareKey, openShare, ShareKeyError, sealShare } from './share-link';
import { createTokenCache, type SignedIn } from './token-cache';

/** The success body's `data` of an operation's answer with status `S`, as the API document gives it. */
type Data<O extends keyof operations, S extends number = 200> = operations[O]['responses'] extends {
  [K in S]: { content: { 'application/json': { data: infer D } } };
}
  ? D
  : never;

/** An environment of a project: its name, when it was created and how many live secrets it holds. */
export type Environment = components['schemas']['Environment'];
/** A secret at its current version, without its value: name, version, when and by whom. */
export type SecretInfo = components['schemas']['Secret'];
/** A secret with its value, at its current or a given version. */
export type SecretValue = Data<'getSecret'>;
/** One version of a secret in its history (a delete is a version too, `deleted: true`). */
export type SecretVersion = Data<'listSecretVersions'>[number];
/** What `change` sends: values to set and names to delete, with the versions each is expected at. */
export type SecretChanges = operations['changeSecrets']['requestBody']['content']['application/json'];
/** One secret a `change` wrote, at its new version. */
export type SecretChange = Data<'changeSecrets'>[number];
/** One secret in two environments: only in `from`, only in `to`, or in both with the same value or another. */
export type SecretComparison = components['schemas']['SecretComparison'];
/** A proposed change of a protected environment's secrets, without its values. */
export type ChangeRequest = components['schemas']['ChangeRequest'];
/** What a `promote` did: each secret written in its target at its new version, or, where the target is protected, the change request it proposed. */
export type Promotion = Data<'promoteSecrets'>;
/** One secret a `promote` wrote in its target environment, at its new version. */
export type PromotedSecret = Exclude<Promotion, ChangeRequest>[number];
/** A share as its creator sees it: id, expiry, views and recipients, never its ciphertext. */
export type Share = components['schemas']['Share'];
/** What `share` may set beside the value: hours, views and recipients (the API's defaults when left out). */
export type ShareOptions = Omit<operations['createShare']['requestBody']['content']['application/json'], 'ciphertext'>;
/** A revealed share: its value, opened with the link's key, with who shared it and the views left. */
export type RevealedShare = Omit<Data<'revealShare'>, 'ciphertext'> & { readonly value: string };
/** The lower-level client: every route of the API by path and method, typed from the API document. */
export type ApiClient = Client<paths>;

/** How a client reaches the API. */
export interface ClientOptions {
  /** The API's base URL: `npm start`'s address or the stack's `ApiUrl` output. */
  readonly apiUrl: string;
  /**
   * An API token (`svc_live_…`) or a session; a function is asked before every request (a session that
   * renews). Without it, and without `signIn`, requests carry no credential (the sign-in routes need none).
   */
  readonly token?: string | (() => string);
  /**
   * Instead of `token`: how to get one, e.g. a service account's sign-in (client/service-account.ts,
   * Node only). Asked at the first request, not before; its token is kept and asked for again once less
   * than 60 s (or a tenth of its life) is left. A request the service answers 401 is sent once more with
   * a token signed in for anew (one revoked or expired early); a second 401 is thrown.
   */
  readonly signIn?: () => Promise<SignedIn>;
  /** The longest one attempt may take, answer included (default 10 s). */
  readonly timeoutMs?: number;
  /** How many times a 429 or a 503 is tried again, after the wait its `Retry-After` asks (default 3). */
  readonly retries?: number;
  /**
   * Keep each environment's `export` for this long, so an application reads its secrets at start and
   * not on every use (default: not kept). Once it is over, the kept copy is revalidated with its
   * `ETag` (`If-None-Match`): an environment that has not changed answers 304, without its values
   * and without a recorded read, and the copy is kept for as long again. A write through the same
   * client drops the kept copy.
   */
  readonly cacheTtlMs?: number;
  /** The `fetch` to send requests with (default: the global one). */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** The clock of the cache and of a signed-in token's expiry, in milliseconds (default `Date.now`); tests move it. */
  readonly now?: () => number;
}

/** The typed client of the Secrets Service: the secret routes by name, and every route through `api`. */
export interface SecretsClient {
  /** The environments of a project. */
  environments(projectId: string): Promise<Environment[]>;
  /** The live secrets of an environment, without values. */
  list(projectId: string, environment: string): Promise<SecretInfo[]>;
  /**
   * A secret's value, at its current version or at `version`, its references resolved (`raw`: as
   * stored). The read is in the audit trail, with those of the secrets it references.
   */
  get(
    projectId: string,
    environment: string,
    name: string,
    version?: number,
    options?: { readonly raw?: boolean },
  ): Promise<SecretValue>;
  /**
   * Writes a secret's value: a new version, or version 1 (`created`). With `expectedVersion`, only if
   * that is still its current version (0: only if it has none), else a 409.
   */
  set(
    projectId: string,
    environment: string,
    name: string,
    value: string,
    options?: { readonly expectedVersion?: number },
  ): Promise<{ secret: SecretInfo; created: boolean }>;
  /** Deletes a secret (its history stays, and `restore` brings a version back). */
  delete(projectId: string, environment: string, name: string): Promise<void>;
  /** Every version of a secret, newest first, without values. */
  history(projectId: string, environment: string, name: string): Promise<SecretVersion[]>;
  /** Makes an earlier version's value the secret's next version. */
  restore(projectId: string, environment: string, name: string, version: number): Promise<SecretInfo>;
  /**
   * Every live secret of an environment with its value, by name, references resolved (kept for
   * `cacheTtlMs` when set, then revalidated); `raw`: as stored, never kept.
   */
  export(projectId: string, environment: string, options?: { readonly raw?: boolean }): Promise<Record<string, string>>;
  /** Sets and deletes several secrets at once: all of them, or none. */
  change(projectId: string, environment: string, changes: SecretChanges): Promise<SecretChange[]>;
  /**
   * How two environments' secrets compare, by name: only in `from`, only in `to`, the same value or
   * another, with each one's version. No value is answered, and no read is recorded.
   */
  compare(projectId: string, from: string, to: string): Promise<SecretComparison[]>;
  /**
   * Copies the current values of `names` from `from` into `to` as one change: all of them, or none. With
   * `expectedVersions`, a secret is written only if that is still its version in `to` (0: only if none).
   * Into a protected environment nothing is written: the answer is the change request proposed, with
   * `note` (else one naming `from`), which waits for its approvals.
   */
  promote(
    projectId: string,
    from: string,
    to: string,
    names: readonly string[],
    options?: { readonly expectedVersions?: Readonly<Record<string, number>>; readonly note?: string },
  ): Promise<Promotion>;
  /**
   * Shares a value end to end: seals it here under a new key (client/share-link.ts) and stores only the
   * ciphertext. Answers the share and the key, which belongs in the link (`shareLink`) and nowhere else.
   */
  share(value: string, options?: ShareOptions): Promise<{ share: Share; key: string }>;
  /**
   * Spends one of a share's views and opens its value with the link's key. A key without a share key's
   * form throws a `ShareKeyError` before any request, so no view is spent; a key that does not open the
   * share throws one after the view is spent. Any refusal is the API's 404 `Share not found`.
   */
  reveal(id: string, key: string): Promise<RevealedShare>;
  /**
   * Where the service's web dashboard is, as its API document says (`x-dashboard-url`): the base of a
   * share's link (`shareLink`). `undefined` from a service whose document does not say.
   */
  dashboardUrl(): Promise<string | undefined>;
  /** Every route of the API, typed from its OpenAPI document; errors are thrown as by the methods above. */
  readonly api: ApiClient;
}

/** The statuses that say "not now": tried again after `Retry-After`. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** A wait asked for longer than this is not waited: the error is thrown at once. */
const LONGEST_RETRY_WAIT_MS = 60_000;

/** How long to wait before trying again: `Retry-After` (seconds or a date), else 1 s, 2 s, 4 s, ... */
const retryWait = (response: Response, attempt: number): number => {
  const asked = response.headers.get('Retry-After');
  if (asked !== null && asked.trim() !== '') {
    const seconds = Number(asked);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(asked);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return 1000 * 2 ** attempt;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The error a non-2xx answer stands for, in the API's words when its body has them. */
const apiError = (status: number, text: string): SecretsApiError => {
  let body: { error?: unknown; details?: unknown } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const error = typeof body?.error === 'string' ? body.error : `The service answered ${status}`;
  const details = Array.isArray(body?.details) ? (body.details as ErrorDetail[]) : undefined;
  return new SecretsApiError(status, error, details);
};

/** The error a redirect stands for, naming the origin it points to (a browser hides it: status 0, no `Location`). */
const redirectError = (response: Response, from: string): SecretsApiError => {
  const location = response.headers.get('Location');
  const to =
    location !== null && URL.canParse(location, from)
      ? `, a redirect to ${new URL(location, from).origin}`
      : ', a redirect';
  return new SecretsApiError(response.status, `The service answered ${response.status}${to}, which is not followed`);
};

/** Where the service is, for a message: the URL without any user or password in it. */
const shownUrl = (apiUrl: string): string => {
  try {
    const url = new URL(apiUrl);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return 'the configured URL';
  }
};

/** The body of an answer that `send` let through, a success (one without a body would be a bug of the API). */
const body = <T>(result: { data?: T }): T => {
  if (result.data === undefined) throw new SecretsApiError(0, 'The service answered without a body');
  return result.data;
};

/** Its `data`. */
const data = <T>(result: { data?: { data: T } }): T => body(result).data;

/**
 * The success body of a client's `api` call, which throws for any other answer: for
 * `const { data, nextCursor } = await bodyOf(client.api.GET('/api/v1/audit-events'))`.
 */
export const bodyOf = async <T>(call: Promise<{ data?: T }>): Promise<T> => body(await call);

/** The success body's `data` of a client's `api` call: `const tokens = await dataOf(client.api.GET('/api/v1/tokens'))`. */
export const dataOf = async <T>(call: Promise<{ data?: { data: T } }>): Promise<T> => data(await call);

/** An environment's export as read, with its tag (none from a service without tags). */
interface Exported {
  readonly etag: string | undefined;
  readonly values: Record<string, string>;
}

/**
 * A client of the Secrets Service over `fetch`. Every non-2xx answer throws a {@link SecretsApiError}
 * with the API's exact text, after trying a 429 or a 503 again up to `retries` times as its
 * `Retry-After` asks; no answer within `timeoutMs`, or no connection, throws a
 * {@link SecretsNetworkError}. The token goes into the `Authorization` header only, never into an error.
 */
export const createClient = ({
  apiUrl,
  token,
  signIn,
  timeoutMs = 10_000,
  retries = 3,
  cacheTtlMs,
  fetch: baseFetch = (request) => globalThis.fetch(request),
  now = Date.now,
}: ClientOptions): SecretsClient => {
  if (token !== undefined && signIn !== undefined) throw new Error('Give a token or a sign-in, not both');
  const signedIn = signIn === undefined ? undefined : createTokenCache(signIn, now);
  const bearer = async (): Promise<string | undefined> =>
    signedIn !== undefined ? signedIn.token() : typeof token === 'function' ? token() : token;
  const where = shownUrl(apiUrl);

  /** One attempt: the request with the credential and a timeout, its answer read whole within it. */
  const attempt = async (
    request: Request,
  ): Promise<{ response: Response; body: ArrayBuffer; credential: string | undefined }> => {
    // The credential first: a sign-in has its own timeout, and its failure is thrown as it is.
    const credential = await bearer();
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers = new Headers(request.headers);
    if (credential !== undefined) headers.set('Authorization', `Bearer ${credential}`);
    const signal = typeof AbortSignal.any === 'function' ? AbortSignal.any([request.signal, timeout]) : timeout;
    try {
      // A redirect is never followed: the token and the values go to the configured origin or nowhere.
      const response = await baseFetch(new Request(request.clone(), { headers, signal, redirect: 'manual' }));
      return { response, body: await response.arrayBuffer(), credential };
    } catch (cause) {
      if (timeout.aborted) {
        throw new SecretsNetworkError(`The service at ${where} did not answer within ${timeoutMs} ms`, true, { cause });
      }
      const code = (cause as { cause?: { code?: unknown } }).cause?.code;
      const reason = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
      throw new SecretsNetworkError(`The service at ${where} cannot be reached (${reason})`, false, { cause });
    }
  };

  /** The `fetch` openapi-fetch calls: answers a 2xx, throws anything else once the retries are spent. */
  const send = async (request: Request): Promise<Response> => {
    let signedInAgain = false;
    for (let tried = 0; ; tried++) {
      const { response, body, credential } = await attempt(request);
      // A signed-in token the service no longer takes (expired by a clock behind the service's): once
      // more with a new one. `tried` is not counted: this is no retry of a 429 or 503.
      if (response.status === 401 && signedIn !== undefined && credential !== undefined && !signedInAgain) {
        signedInAgain = true;
        signedIn.drop(credential);
        tried--;
        continue;
      }
      // A 304 answers an `If-None-Match` its caller sent: the caller's copy still holds.
      if (response.ok || response.status === 304) {
        return new Response(response.status === 204 || response.status === 304 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      }
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        throw redirectError(response, request.url);
      }
      const wait = retryWait(response, tried);
      if (!RETRIED_STATUSES.has(response.status) || tried >= retries || wait > LONGEST_RETRY_WAIT_MS) {
        throw apiError(response.status, new TextDecoder().decode(body));
      }
      await sleep(wait);
    }
  };

  const api = createFetchClient<paths>({ baseUrl: apiUrl, fetch: send });

  const exports = new Map<string, { readonly at: number; readonly exported: Promise<Exported> }>();
  const cacheKey = (projectId: string, environment: string) => JSON.stringify([projectId, environment]);
  /** A write through this client makes the environment's kept export stale. */
  const written = <T>(projectId: string, environment: string, result: T): T => {
    exports.delete(cacheKey(projectId, environment));
    return result;
  };

  /** The export, or `kept` again when the service answers that it still holds (304 to its tag). */
  const readExport = async (projectId: string, environment: string, kept?: Exported): Promise<Exported> => {
    const result = await api.GET('/api/v1/projects/{projectId}/environments/{environment}/export', {
      params: {
        path: { projectId, environment },
        ...(kept?.etag !== undefined && { header: { 'If-None-Match': kept.etag } }),
      },
    });
    if (kept !== undefined && result.response.status === 304) return kept;
    return { etag: result.response.headers.get('ETag') ?? undefined, values: data(result) };
  };

  return {
    api,
    environments: async (projectId) =>
      data(await api.GET('/api/v1/projects/{projectId}/environments', { params: { path: { projectId } } })),
    list: async (projectId, environment) =>
      data(
        await api.GET('/api/v1/projects/{projectId}/environments/{environment}/secrets', {
          params: { path: { projectId, environment } },
        }),
      ),
    get: async (projectId, environment, name, version, options = {}) => {
      const query = {
        ...(version !== undefined && { version: String(version) }),
        ...(options.raw === true && { raw: 'true' }),
      };
      return data(
        await api.GET('/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}', {
          params: { path: { projectId, environment, name }, ...(Object.keys(query).length > 0 && { query }) },
        }),
      );
    },
    set: async (projectId, environment, name, value, options = {}) => {
      const result = await api.PUT('/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}', {
        params: { path: { projectId, environment, name } },
        body: { value, ...(options.expectedVersion !== undefined && { expectedVersion: options.expectedVersion }) },
      });
      return written(projectId, environment, { secret: data(result), created: result.response.status === 201 });
    },
    delete: async (projectId, environment, name) => {
      await api.DELETE('/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}', {
        params: { path: { projectId, environment, name } },
      });
      written(projectId, environment, undefined);
    },
    history: async (projectId, environment, name) =>
      data(
        await api.GET('/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/versions', {
          params: { path: { projectId, environment, name } },
        }),
      ),
    restore: async (projectId, environment, name, version) =>
      written(
        projectId,
        environment,
        data(
          await api.POST('/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore', {
            params: { path: { projectId, environment, name } },
            body: { version },
          }),
        ),
      ),
    export: async (projectId, environment, options = {}) => {
      if (options.raw === true) {
        return data(
          await api.GET('/api/v1/projects/{projectId}/environments/{environment}/export', {
            params: { path: { projectId, environment }, query: { raw: 'true' } },
          }),
        );
      }
      if (cacheTtlMs === undefined || cacheTtlMs <= 0) return (await readExport(projectId, environment)).values;
      const key = cacheKey(projectId, environment);
      const kept = exports.get(key);
      if (kept !== undefined && now() - kept.at < cacheTtlMs) return { ...(await kept.exported).values };
      // Past its time to live, a kept copy is revalidated. Concurrent reads share one request; a failed
      // read is not kept.
      const exported = (kept?.exported ?? Promise.resolve(undefined)).then((earlier) =>
        readExport(projectId, environment, earlier),
      );
      exports.set(key, { at: now(), exported });
      exported.catch(() => {
        if (exports.get(key)?.exported === exported) exports.delete(key);
      });
      return { ...(await exported).values };
    },
    change: async (projectId, environment, changes) =>
      written(
        projectId,
        environment,
        data(
          await api.PATCH('/api/v1/projects/{projectId}/environments/{environment}/secrets', {
            params: { path: { projectId, environment } },
            body: changes,
          }),
        ),
      ),
    compare: async (projectId, from, to) =>
      data(
        await api.GET('/api/v1/projects/{projectId}/compare', {
          params: { path: { projectId }, query: { from, to } },
        }),
      ),
    promote: async (projectId, from, to, names, options = {}) =>
      written(
        projectId,
        to,
        data(
          await api.POST('/api/v1/projects/{projectId}/promote', {
            params: { path: { projectId } },
            body: {
              from,
              to,
              names: [...names],
              ...(options.expectedVersions !== undefined && { expectedVersions: { ...options.expectedVersions } }),
              ...(options.note !== undefined && { note: options.note }),
            },
          }),
        ),
      ),
    share: async (value, options = {}) => {
      const { ciphertext, key } = await sealShare(value);
      return { share: data(await api.POST('/api/v1/shares', { body: { ...options, ciphertext } })), key };
    },
    dashboardUrl: async () => {
      const named = body(await api.GET('/api/v1/openapi.json'))['x-dashboard-url'];
      return typeof named === 'string' && URL.canParse(named, apiUrl) ? new URL(named, apiUrl).href : undefined;
    },
    reveal: async (id, key) => {
      // A link cut short must not cost a view: the key's form is checked before the reveal spends one.
      if (!isShareKey(key))
        throw new ShareKeyError('The link’s key is not a share key: copy the whole link (no view was spent)');
      const { ciphertext, ...revealed } = data(
        await api.POST('/api/v1/shares/{id}/reveal', { params: { path: { id } } }),
      );
      try {
        return { ...revealed, value: await openShare(ciphertext, key) };
      } catch (error) {
        if (!(error instanceof ShareKeyError)) throw error;
        const left = revealed.viewsLeft === 0 ? 'it was the last' : `${revealed.viewsLeft} left`;
        throw new ShareKeyError(`${error.message} (this reveal spent a view: ${left})`);
      }
    },
  };
};
