import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ServiceAccount } from '@client/service-account';
import { ENVIRONMENT_NAME_PATTERN, PROJECT_ID_PATTERN } from '@contract/identifiers';
import { UsageError } from './errors';
import { serviceAccountFrom } from './sign-in';
import { recordTrust, revokeTrust, sha256, trustOf, trustStoreFile } from './trust-store';

/** The file `secrets setup` writes: which project and environment a folder uses, never a token. */
export const SETUP_FILE = '.secrets.json';

/** A project's environment. */
export interface Target {
  readonly projectId: string;
  readonly environment: string;
}

/** The flags that name a target. */
export interface TargetFlags {
  readonly project?: string;
  readonly env?: string;
}

/** A path with its symbolic links resolved, so that two names of one folder compare equal; as given when it does not exist. */
const realPath = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** The person's home folder: `HOME`, else the system's account entry. */
export const homeFolder = (env: NodeJS.ProcessEnv): string => realPath(env.HOME || homedir());

/** A `.secrets.json` the search found: where, and its bytes, read once so that what is trusted is what is used. */
export interface SetupFile {
  readonly file: string;
  readonly folder: string;
  readonly bytes: Buffer;
}

/**
 * The nearest `.secrets.json` in `start` or a folder above it. The search never climbs past the
 * repository's root (the folder holding `.git`, a folder or a worktree's file) nor `home`, whichever
 * comes first: a file in a shared folder above them (/tmp, a parent repository) is someone else's.
 */
export const findSetup = (start: string, home: string): SetupFile | undefined => {
  for (let folder = realPath(start); ; folder = dirname(folder)) {
    const file = join(folder, SETUP_FILE);
    if (existsSync(file)) return { file, folder, bytes: readFileSync(file) };
    if (folder === home || existsSync(join(folder, '.git')) || dirname(folder) === folder) return undefined;
  }
};

/** The project and environment a file names, each `undefined` when it names none; a file that is not JSON is a usage error. */
const namedIn = ({ file, bytes }: SetupFile): { project?: string; environment?: string } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new UsageError(`${file} is not JSON: write it again with \`secrets setup\``);
  }
  const fields = (parsed ?? {}) as { project?: unknown; environment?: unknown };
  return {
    project: typeof fields.project === 'string' ? fields.project : undefined,
    environment: typeof fields.environment === 'string' ? fields.environment : undefined,
  };
};

/**
 * What the `.secrets.json` that `cwd` uses names, when there is one and the person trusts it as it is
 * now; one they never trusted, or that changed since, is refused.
 */
const trustedSetup = (cwd: string, env: NodeJS.ProcessEnv): { project?: string; environment?: string } | undefined => {
  const setup = findSetup(cwd, homeFolder(env));
  if (setup === undefined) return undefined;
  const trust = trustOf(trustStoreFile(env), setup.folder, sha256(setup.bytes));
  if (trust !== 'trusted') {
    const why = trust === 'changed' ? 'it changed since it was trusted' : 'it is not trusted';
    throw new UsageError(`Refusing ${setup.file}: ${why}; review it, then run \`secrets trust\` in that folder.`);
  }
  return namedIn(setup);
};

const checkProject = (projectId: string): string => {
  if (!PROJECT_ID_PATTERN.test(projectId)) throw new UsageError(`"${projectId}" is not a project id (prj_…)`);
  return projectId;
};

/** An environment's name with its form (a-z, 0-9 and -); another is a usage error. */
export const checkEnvironment = (environment: string): string => {
  if (!ENVIRONMENT_NAME_PATTERN.test(environment)) {
    throw new UsageError(`"${environment}" is not an environment name (a-z, 0-9 and -)`);
  }
  return environment;
};

const SETUP_HINT = 'run `secrets setup --project <id> --env <name>`';

/** The project: from `--project`, else `SECRETS_PROJECT`, else the nearest trusted `.secrets.json`; missing is a usage error. */
export const resolveProject = (flags: TargetFlags, env: NodeJS.ProcessEnv, cwd: string): string => {
  const projectId = flags.project ?? (env.SECRETS_PROJECT || undefined) ?? trustedSetup(cwd, env)?.project;
  if (!projectId) throw new UsageError(`no project: give --project, set SECRETS_PROJECT or ${SETUP_HINT}`);
  return checkProject(projectId);
};

/**
 * The project and environment, each from its flag, else its variable, else the nearest trusted
 * `.secrets.json`: a file is read only when a flag or a variable leaves one of them unnamed.
 */
export const resolveTarget = (flags: TargetFlags, env: NodeJS.ProcessEnv, cwd: string): Target => {
  const named = {
    project: flags.project ?? (env.SECRETS_PROJECT || undefined),
    environment: flags.env ?? (env.SECRETS_ENV || undefined),
  };
  const setup = named.project && named.environment ? undefined : trustedSetup(cwd, env);
  const projectId = named.project ?? setup?.project;
  if (!projectId) throw new UsageError(`no project: give --project, set SECRETS_PROJECT or ${SETUP_HINT}`);
  const environment = named.environment ?? setup?.environment;
  if (!environment) throw new UsageError(`no environment: give --env, set SECRETS_ENV or ${SETUP_HINT}`);
  return { projectId: checkProject(projectId), environment: checkEnvironment(environment) };
};

/** A target whose project id and environment name have their forms; either without is a usage error. */
export const checkTarget = (target: Target): Target => ({
  projectId: checkProject(target.projectId),
  environment: checkEnvironment(target.environment),
});

/** Trusts a `.secrets.json` as it is now; answers the target it names, which must be whole and of its forms. */
export const trustSetup = (setup: SetupFile, env: NodeJS.ProcessEnv): Target => {
  const { project, environment } = namedIn(setup);
  if (!project) throw new UsageError(`${setup.file} names no project: write it again with \`secrets setup\``);
  if (!environment) throw new UsageError(`${setup.file} names no environment: write it again with \`secrets setup\``);
  const target = checkTarget({ projectId: project, environment });
  recordTrust(trustStoreFile(env), setup.folder, {
    sha256: sha256(setup.bytes),
    project: target.projectId,
    environment: target.environment,
  });
  return target;
};

/**
 * Stops trusting the `.secrets.json` that `start` uses, else (one removed since) the one `start` held;
 * answers its path and whether it was trusted.
 */
export const revokeSetup = (start: string, env: NodeJS.ProcessEnv): { file: string; revoked: boolean } => {
  const folder = findSetup(start, homeFolder(env))?.folder ?? realPath(start);
  return { file: join(folder, SETUP_FILE), revoked: revokeTrust(trustStoreFile(env), folder) };
};

/** Writes `.secrets.json` in `cwd` and trusts it, since the person chose what it names; answers its path. */
export const writeSetup = (cwd: string, target: Target, env: NodeJS.ProcessEnv): string => {
  const folder = realPath(cwd);
  const file = join(folder, SETUP_FILE);
  const { projectId, environment } = checkTarget(target);
  const bytes = Buffer.from(`${JSON.stringify({ project: projectId, environment }, null, 2)}\n`);
  writeFileSync(file, bytes);
  trustSetup({ file, folder, bytes }, env);
  return file;
};

/** A base URL without its trailing slashes; `npm start` prints its address with `/api/v1`, which the client adds itself. */
const baseUrl = (url: string): string => url.replace(/\/+$/, '').replace(/\/api\/v1$/, '');

/**
 * Whether a URL's host (as `URL` writes it: IPv4 in dotted form, IPv6 in brackets) is this machine:
 * only there may the token and the values travel over plain http, where no one else can read them.
 */
const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

/** Where the API is, and either the token to use or the service account to sign in as. */
export type Credentials = { readonly apiUrl: string } & (
  | { readonly token: string; readonly serviceAccount?: undefined }
  | { readonly token?: undefined; readonly serviceAccount: ServiceAccount }
);

/**
 * Where the API is (https, or http on a loopback address) and the credential, from the environment only:
 * `SECRETS_TOKEN`, else the service account of `SECRETS_SERVICE_ACCOUNT`, which signs in by itself
 * (cli/sign-in.ts).
 */
export const resolveCredentials = (env: NodeJS.ProcessEnv): Credentials => {
  const token = env.SECRETS_TOKEN || undefined;
  const serviceAccountId = env.SECRETS_SERVICE_ACCOUNT || undefined;
  if (!token && !serviceAccountId) {
    throw new UsageError(
      'SECRETS_TOKEN is not set: create an API token in the dashboard and export it (or set SECRETS_SERVICE_ACCOUNT to sign in as a service account)',
    );
  }
  const apiUrl = env.SECRETS_API_URL;
  if (!apiUrl) throw new UsageError('SECRETS_API_URL is not set: give the API’s base URL (the stack’s ApiUrl)');
  if (!URL.canParse(apiUrl)) throw new UsageError('SECRETS_API_URL is not a URL');
  const { protocol, hostname } = new URL(apiUrl);
  if (protocol !== 'https:' && !(protocol === 'http:' && isLoopback(hostname))) {
    throw new UsageError('SECRETS_API_URL must be https, or http on a loopback address (127.0.0.0/8, ::1, localhost)');
  }
  if (token) return { apiUrl: baseUrl(apiUrl), token };
  return { apiUrl: baseUrl(apiUrl), serviceAccount: serviceAccountFrom(env, serviceAccountId ?? '') };
};

/**
 * The dashboard a share's link opens when `SECRETS_DASHBOARD_URL` names one (the stack's
 * `DashboardUrl`); `undefined` leaves it to the API, whose document says where its dashboard is.
 */
export const resolveDashboardUrl = (env: NodeJS.ProcessEnv): string | undefined => {
  const named = env.SECRETS_DASHBOARD_URL || undefined;
  if (named === undefined) return undefined;
  if (!URL.canParse(named)) throw new UsageError('SECRETS_DASHBOARD_URL is not a URL');
  return named.replace(/\/+$/, '');
};
