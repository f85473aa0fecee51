/**
 * A service account's sign-ins without a stored secret, for Node programs (a CI job, a Lambda function,
 * the `secrets` command): a workload's OIDC token (`POST /api/v1/auth/oidc`), GitHub Actions' own ID
 * token, or the caller's AWS identity (`POST /api/v1/auth/aws`, a signed sts:GetCallerIdentity). Each
 * answers a short-lived `svc_live_…` token; `createServiceAccountClient` signs in by itself, keeps the
 * token and signs in again before it expires. Node only (not exported from the client's index, which the
 * dashboard bundles): the AWS sign-in loads the AWS SDK's default credential chain when it is used.
 */
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { type AwsSignInCredentials, serviceHostOf, signedCallerIdentityRequest } from './aws-sign-in';
import { type ClientOptions, createClient, type SecretsClient } from './create-client';
import { SecretsApiError, SignInRefusedError } from './errors';
import type { SignedIn } from './token-cache';

export type { SignedIn } from './token-cache';

/** Where and how the sign-in request is sent: as the typed client sends its requests. */
export interface SignInConnection {
  /** The API's base URL, as `createClient`'s `apiUrl`. */
  readonly apiUrl: string;
  /** The longest the sign-in may take, answer included (default 10 s). */
  readonly timeoutMs?: number;
  /** The `fetch` to send it with (default: the global one). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

interface SignInTarget extends SignInConnection {
  /** The service account to sign in as (`sa_…`). */
  readonly serviceAccountId: string;
  /** Seconds the token lives, 60 to 3600 (default: the service's, 900). */
  readonly ttlSeconds?: number;
}

/** A value given as it is, or a function asked for it at each sign-in (a token file Kubernetes renews). */
type Provided<T> = T | (() => T | Promise<T>);

export interface OidcSignInOptions extends SignInTarget {
  /** The workload's OIDC token (a JWT one of the service account's `oidc` rules accepts), or a function answering one. */
  readonly token: Provided<string>;
}

export interface AwsSignInOptions extends SignInTarget {
  /** AWS credentials, or a provider of them; default: the AWS SDK's default chain (environment, profile, container, instance). */
  readonly credentials?: AwsSignInCredentials | AwsCredentialIdentityProvider;
  /** The STS region to sign for (`sts.<region>.amazonaws.com`); default: the global `sts.amazonaws.com`. */
  readonly region?: string;
}

const provided = async <T>(value: Provided<T>): Promise<T> =>
  typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;

/** Sends a sign-in through a client without credential; a 401 becomes a `SignInRefusedError` naming the service account. */
const signInThrough = async (
  path: '/api/v1/auth/oidc' | '/api/v1/auth/aws',
  options: SignInTarget,
  body: { token: string } | { request: { headers: Record<string, string>; body: string } },
): Promise<SignedIn> => {
  const client = createClient({
    apiUrl: options.apiUrl,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  });
  const fields = {
    serviceAccountId: options.serviceAccountId,
    ...(options.ttlSeconds !== undefined && { ttlSeconds: options.ttlSeconds }),
  };
  try {
    const result =
      path === '/api/v1/auth/oidc'
        ? await client.api.POST(path, { body: { ...fields, ...(body as { token: string }) } })
        : await client.api.POST(path, {
            body: { ...fields, ...(body as { request: { headers: Record<string, string>; body: string } }) },
          });
    if (result.data === undefined) throw new SecretsApiError(0, 'The service answered without a body');
    const { token, expiresAt } = result.data.data;
    return { token, expiresAt };
  } catch (error) {
    if (error instanceof SecretsApiError && error.status === 401) {
      throw new SignInRefusedError(options.serviceAccountId, error.status, error.error);
    }
    throw error;
  }
};

/** Signs in as a service account with a workload's OIDC token: answers its `svc_live_…` token and expiry. */
export const signInWithOidc = async (options: OidcSignInOptions): Promise<SignedIn> =>
  signInThrough('/api/v1/auth/oidc', options, { token: await provided(options.token) });

/** The AWS SDK's default credential chain, loaded the first time an AWS sign-in needs it. */
const defaultCredentials: AwsCredentialIdentityProvider = async (...args) => {
  const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
  return defaultProvider()(...args);
};

/**
 * Signs in as a service account with the caller's AWS identity: signs sts:GetCallerIdentity for this API
 * (never sent from here: the service sends it to STS) with `credentials`, by default the AWS SDK's
 * default chain (a Lambda function's role, a container's, an instance profile, `AWS_PROFILE`…).
 */
export const signInWithAws = async (options: AwsSignInOptions): Promise<SignedIn> => {
  const given = options.credentials ?? defaultCredentials;
  const resolved = typeof given === 'function' ? await given() : given;
  const request = await signedCallerIdentityRequest({
    credentials: {
      accessKeyId: resolved.accessKeyId,
      secretAccessKey: resolved.secretAccessKey,
      ...(resolved.sessionToken !== undefined && { sessionToken: resolved.sessionToken }),
    },
    ...(options.region !== undefined && { region: options.region }),
    service: serviceHostOf(options.apiUrl),
  });
  return signInThrough('/api/v1/auth/aws', options, { request });
};

/** GitHub Actions' variables a job with `permissions: id-token: write` has, to ask for its ID token. */
export const GITHUB_ACTIONS_TOKEN_VARIABLES = [
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
] as const;

/** Whether `env` holds GitHub Actions' variables to ask for an ID token (a job with `id-token: write`). */
export const inGithubActions = (env: Readonly<Record<string, string | undefined>>): boolean =>
  GITHUB_ACTIONS_TOKEN_VARIABLES.every((name) => Boolean(env[name]));

/**
 * A GitHub Actions job's OIDC ID token for `audience` (its `aud`, which the trust rule names), as
 * `core.getIDToken` gets it: GET `ACTIONS_ID_TOKEN_REQUEST_URL` with `&audience=…`, authorized by
 * `ACTIONS_ID_TOKEN_REQUEST_TOKEN` (`Authorization: bearer …`), answering `{"value": "<JWT>"}`.
 * The job needs `permissions: id-token: write`, without which GitHub sets neither variable.
 */
export const githubActionsIdToken = async (
  audience: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: { readonly fetch?: (request: Request) => Promise<Response>; readonly timeoutMs?: number } = {},
): Promise<string> => {
  const requestUrl = env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (!requestUrl || !requestToken) {
    throw new Error(
      'ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set: give the job `permissions: id-token: write`',
    );
  }
  if (!URL.canParse(requestUrl)) throw new Error('ACTIONS_ID_TOKEN_REQUEST_URL is not a URL');
  const url = new URL(requestUrl);
  url.searchParams.set('audience', audience);
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  let response: Response;
  try {
    response = await send(
      new Request(url, {
        headers: { Authorization: `bearer ${requestToken}`, Accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      }),
    );
  } catch (cause) {
    throw new Error(`GitHub Actions' ID token could not be asked for (${(cause as Error).message})`, { cause });
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`GitHub Actions' ID token was refused: ${response.status}`);
  let value: unknown;
  try {
    value = (JSON.parse(text) as { value?: unknown }).value;
  } catch {
    value = undefined;
  }
  if (typeof value !== 'string' || value === '') throw new Error('GitHub Actions answered no ID token');
  return value;
};

/** How a service account signs in: with an OIDC token, GitHub Actions' ID token, or its AWS identity. */
export type ServiceAccountSignIn =
  | { readonly signIn: 'oidc'; readonly token: Provided<string> }
  | {
      readonly signIn: 'github-actions';
      /** The `aud` to ask GitHub for: the audience the trust rule names. */
      readonly audience: string;
      /** Where GitHub's variables are (default `process.env`). */
      readonly env?: Readonly<Record<string, string | undefined>>;
    }
  | {
      readonly signIn: 'aws';
      readonly credentials?: AwsSignInCredentials | AwsCredentialIdentityProvider;
      readonly region?: string;
    };

/** A service account and how it signs in. */
export type ServiceAccount = ServiceAccountSignIn & {
  /** The service account (`sa_…`). */
  readonly id: string;
  /** Seconds each token lives, 60 to 3600 (default: the service's, 900). */
  readonly ttlSeconds?: number;
};

/** The sign-in `createClient` takes as `signIn`: one sign-in as `account`, sent as `connection` says. */
export const serviceAccountSignIn =
  (account: ServiceAccount, connection: SignInConnection): (() => Promise<SignedIn>) =>
  () => {
    const target = {
      ...connection,
      serviceAccountId: account.id,
      ...(account.ttlSeconds !== undefined && { ttlSeconds: account.ttlSeconds }),
    };
    switch (account.signIn) {
      case 'oidc':
        return signInWithOidc({ ...target, token: account.token });
      case 'github-actions':
        return signInWithOidc({
          ...target,
          token: () =>
            githubActionsIdToken(account.audience, account.env ?? process.env, {
              ...(connection.fetch !== undefined && { fetch: connection.fetch }),
              ...(connection.timeoutMs !== undefined && { timeoutMs: connection.timeoutMs }),
            }),
        });
      case 'aws':
        return signInWithAws({
          ...target,
          ...(account.credentials !== undefined && { credentials: account.credentials }),
          ...(account.region !== undefined && { region: account.region }),
        });
    }
  };

/**
 * A client that signs in as a service account by itself, at its first request: for a Lambda function
 * that reads its secrets with its own role, `createServiceAccountClient({ apiUrl, serviceAccount: { id:
 * 'sa_…', signIn: 'aws' } })`. The token is kept and signed in for again before it expires (client/token-cache.ts).
 */
export const createServiceAccountClient = ({
  serviceAccount,
  ...options
}: Omit<ClientOptions, 'token' | 'signIn'> & { readonly serviceAccount: ServiceAccount }): SecretsClient =>
  createClient({
    ...options,
    signIn: serviceAccountSignIn(serviceAccount, {
      apiUrl: options.apiUrl,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.fetch !== undefined && { fetch: options.fetch }),
    }),
  });
