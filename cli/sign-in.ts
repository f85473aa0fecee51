import { readFileSync } from 'node:fs';
import { inGithubActions, type ServiceAccount, type SignedIn, serviceAccountSignIn } from '@client/service-account';
import { SERVICE_ACCOUNT_ID_PATTERN } from '@contract/identifiers';
import { SecretsApiError, SecretsNetworkError, type SignInRefusedError } from './client';
import { parseDuration } from './duration';
import { CommandError, fileProblem, UsageError } from './errors';

/**
 * How the command signs in as a service account when `SECRETS_SERVICE_ACCOUNT` is set and
 * `SECRETS_TOKEN` is not: AWS (`SECRETS_AUTH=aws`), else a workload's OIDC token
 * (`SECRETS_OIDC_TOKEN`, or the file `SECRETS_OIDC_TOKEN_FILE`), else GitHub Actions' ID token.
 */

/**
 * The audience asked of GitHub Actions when `SECRETS_OIDC_AUDIENCE` names none: the one the API's
 * documents, the development workload issuer (`npm run workload-token`) and the examples of a trust rule
 * use. A name of the service rather than of a deployment, so one workflow's rule reads the same for any
 * stack; the service account's id already says which deployment and project it is.
 */
export const DEFAULT_OIDC_AUDIENCE = 'secrets-service';

/** The ways `SECRETS_AUTH` may name, each forcing one way to sign in. */
const AUTH_KINDS = ['aws', 'oidc', 'github-actions'] as const;
type AuthKind = (typeof AUTH_KINDS)[number];

/** The variables of the command's own sign-in, which a child of `run` does not get. */
export const SIGN_IN_VARIABLES = [
  'SECRETS_SERVICE_ACCOUNT',
  'SECRETS_AUTH',
  'SECRETS_OIDC_TOKEN',
  'SECRETS_OIDC_TOKEN_FILE',
  'SECRETS_OIDC_AUDIENCE',
  'SECRETS_SIGN_IN_TTL',
] as const;

/** The shortest and longest life a signed-in token may be asked for, in seconds (the API's bounds). */
const TTL_SECONDS = { least: 60, most: 3600 } as const;

/** `SECRETS_SIGN_IN_TTL` in seconds (`5m`, `3600`), or undefined for the service's default (15 minutes). */
const signInTtl = (env: NodeJS.ProcessEnv): number | undefined => {
  const text = env.SECRETS_SIGN_IN_TTL || undefined;
  if (text === undefined) return undefined;
  const ms = parseDuration(text, 'SECRETS_SIGN_IN_TTL');
  if (ms % 1000 !== 0 || ms < TTL_SECONDS.least * 1000 || ms > TTL_SECONDS.most * 1000) {
    throw new UsageError(`SECRETS_SIGN_IN_TTL is 60s to 1h in whole seconds, not "${text}"`);
  }
  return ms / 1000;
};

/** Every credential the command has held (its token, a workload's token, a signed-in one): a message never shows one. */
const held = new Set<string>();

/** Remembers a credential so that `redact` hides it. */
export const hold = (credential: string | undefined): void => {
  if (credential) held.add(credential);
};

/** `text` with every credential the command has held replaced by `[redacted]`. */
export const redact = (text: string): string => {
  let shown = text;
  for (const credential of held) shown = shown.split(credential).join('[redacted]');
  return shown;
};

/** A workload's token read from a file (Kubernetes' projected token, renewed in place): read at each sign-in. */
const readTokenFile = (file: string): string => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read SECRETS_OIDC_TOKEN_FILE ${file}: ${fileProblem(error)}`);
  }
  const token = text.trim();
  if (token === '') throw new CommandError(`SECRETS_OIDC_TOKEN_FILE ${file} is empty`);
  hold(token);
  return token;
};

/** The STS region to sign for: the SDK's `AWS_REGION`, else `AWS_DEFAULT_REGION`, else STS's global endpoint. */
const awsRegion = (env: NodeJS.ProcessEnv): string | undefined => env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;

/** The service account of `SECRETS_SERVICE_ACCOUNT` and how it signs in, from the environment. */
export const serviceAccountFrom = (env: NodeJS.ProcessEnv, serviceAccountId: string): ServiceAccount => {
  const ttlSeconds = signInTtl(env);
  const account = { id: serviceAccountId, ...(ttlSeconds !== undefined && { ttlSeconds }) };
  if (!SERVICE_ACCOUNT_ID_PATTERN.test(serviceAccountId)) {
    throw new UsageError(
      `SECRETS_SERVICE_ACCOUNT ${JSON.stringify(serviceAccountId)} is not a service account id (sa_…)`,
    );
  }
  const auth = env.SECRETS_AUTH || undefined;
  if (auth !== undefined && !(AUTH_KINDS as readonly string[]).includes(auth)) {
    throw new UsageError(`SECRETS_AUTH is ${AUTH_KINDS.join(', ')} or unset, not ${JSON.stringify(auth)}`);
  }
  const kind = auth as AuthKind | undefined;
  const token = env.SECRETS_OIDC_TOKEN || undefined;
  const file = env.SECRETS_OIDC_TOKEN_FILE || undefined;
  hold(token);
  hold(env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
  if (token !== undefined && file !== undefined) {
    throw new UsageError('set SECRETS_OIDC_TOKEN or SECRETS_OIDC_TOKEN_FILE, not both');
  }
  if (kind === 'aws') {
    const region = awsRegion(env);
    return { ...account, signIn: 'aws', ...(region !== undefined && { region }) };
  }
  if (kind !== 'github-actions' && token !== undefined) return { ...account, signIn: 'oidc', token };
  if (kind !== 'github-actions' && file !== undefined) {
    return { ...account, signIn: 'oidc', token: () => readTokenFile(file) };
  }
  if (kind === 'oidc') throw new UsageError('SECRETS_AUTH=oidc needs SECRETS_OIDC_TOKEN or SECRETS_OIDC_TOKEN_FILE');
  if (inGithubActions(env)) {
    return {
      ...account,
      signIn: 'github-actions',
      audience: env.SECRETS_OIDC_AUDIENCE || DEFAULT_OIDC_AUDIENCE,
      env,
    };
  }
  throw new UsageError(
    kind === 'github-actions'
      ? 'SECRETS_AUTH=github-actions needs ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN: give the job `permissions: id-token: write`'
      : `SECRETS_SERVICE_ACCOUNT is set but nothing to sign in with: set SECRETS_OIDC_TOKEN or SECRETS_OIDC_TOKEN_FILE, or SECRETS_AUTH=aws, or run in GitHub Actions with \`permissions: id-token: write\``,
  );
};

/**
 * The sign-in the client asks for a token: as `account`, remembering each token so that no message shows
 * it. A refusal is thrown as it is (the command says it in one line); the service unreachable or failing
 * too (so `run --fallback` still stands in); anything else (no token file, GitHub or the AWS chain
 * failing) becomes one line naming the service account.
 */
export const commandSignIn = (
  account: ServiceAccount,
  connection: { readonly apiUrl: string; readonly timeoutMs: number },
): (() => Promise<SignedIn>) => {
  const signIn = serviceAccountSignIn(account, connection);
  return async () => {
    try {
      const signedIn = await signIn();
      hold(signedIn.token);
      return signedIn;
    } catch (error) {
      if (error instanceof SecretsApiError || error instanceof SecretsNetworkError || error instanceof CommandError) {
        throw error;
      }
      throw new CommandError(
        `sign-in as ${account.id} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
};

/** The one line a refused sign-in is told in. */
export const refusalLine = (error: SignInRefusedError): string =>
  `sign-in as ${error.serviceAccountId} refused: ${error.error} (check the service account's trust rules)`;
