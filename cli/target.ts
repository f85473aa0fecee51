import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ENVIRONMENT_NAME_PATTERN, PROJECT_ID_PATTERN } from '@contract/identifiers';
import { UsageError } from './errors';

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

/**
 * The nearest `.secrets.json` in `start` or a folder above it, and what it names. The search never
 * climbs past the repository's root (the folder holding `.git`, a folder or a worktree's file) nor
 * `home`, whichever comes first: a file in a shared folder above them (/tmp, a parent repository)
 * is someone else's.
 */
export const findSetup = (
  start: string,
  home: string,
): { file: string; project?: string; env?: string } | undefined => {
  for (let folder = realPath(start); ; folder = dirname(folder)) {
    const file = join(folder, SETUP_FILE);
    if (existsSync(file)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        throw new UsageError(`${file} is not JSON: write it again with \`secrets setup\``);
      }
      const fields = (parsed ?? {}) as { project?: unknown; environment?: unknown };
      return {
        file,
        project: typeof fields.project === 'string' ? fields.project : undefined,
        env: typeof fields.environment === 'string' ? fields.environment : undefined,
      };
    }
    if (folder === home || existsSync(join(folder, '.git')) || dirname(folder) === folder) return undefined;
  }
};

const checkProject = (projectId: string): string => {
  if (!PROJECT_ID_PATTERN.test(projectId)) throw new UsageError(`"${projectId}" is not a project id (prj_…)`);
  return projectId;
};

const checkEnvironment = (environment: string): string => {
  if (!ENVIRONMENT_NAME_PATTERN.test(environment)) {
    throw new UsageError(`"${environment}" is not an environment name (a-z, 0-9 and -)`);
  }
  return environment;
};

const SETUP_HINT = 'run `secrets setup --project <id> --env <name>`';

/** The project: from `--project`, else `SECRETS_PROJECT`, else the nearest `.secrets.json`; missing is a usage error. */
export const resolveProject = (flags: TargetFlags, env: NodeJS.ProcessEnv, cwd: string): string => {
  const projectId = flags.project ?? (env.SECRETS_PROJECT || undefined) ?? findSetup(cwd, homeFolder(env))?.project;
  if (!projectId) throw new UsageError(`no project: give --project, set SECRETS_PROJECT or ${SETUP_HINT}`);
  return checkProject(projectId);
};

/** The project and environment, each as `resolveProject` finds the project. */
export const resolveTarget = (flags: TargetFlags, env: NodeJS.ProcessEnv, cwd: string): Target => {
  const projectId = resolveProject(flags, env, cwd);
  const environment = flags.env ?? (env.SECRETS_ENV || undefined) ?? findSetup(cwd, homeFolder(env))?.env;
  if (!environment) throw new UsageError(`no environment: give --env, set SECRETS_ENV or ${SETUP_HINT}`);
  return { projectId, environment: checkEnvironment(environment) };
};

/** A target whose project id and environment name have their forms; either without is a usage error. */
export const checkTarget = (target: Target): Target => ({
  projectId: checkProject(target.projectId),
  environment: checkEnvironment(target.environment),
});

/** Writes `.secrets.json` in `cwd`; answers its path. */
export const writeSetup = (cwd: string, target: Target): string => {
  const file = join(cwd, SETUP_FILE);
  const { projectId, environment } = checkTarget(target);
  writeFileSync(file, `${JSON.stringify({ project: projectId, environment }, null, 2)}\n`);
  return file;
};

/** A base URL without its trailing slashes; `npm start` prints its address with `/api/v1`, which the client adds itself. */
const baseUrl = (url: string): string => url.replace(/\/+$/, '').replace(/\/api\/v1$/, '');

/** Where the API is and the token to use, from the environment only. */
export const resolveCredentials = (env: NodeJS.ProcessEnv): { apiUrl: string; token: string } => {
  const token = env.SECRETS_TOKEN;
  if (!token) throw new UsageError('SECRETS_TOKEN is not set: create an API token in the dashboard and export it');
  const apiUrl = env.SECRETS_API_URL;
  if (!apiUrl) throw new UsageError('SECRETS_API_URL is not set: give the API’s base URL (the stack’s ApiUrl)');
  try {
    new URL(apiUrl);
  } catch {
    throw new UsageError('SECRETS_API_URL is not a URL');
  }
  return { apiUrl: baseUrl(apiUrl), token };
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
