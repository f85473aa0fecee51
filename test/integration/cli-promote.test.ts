import { randomUUID } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, type CliResult, runCli } from './cli';
import { arrange, call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * `secrets diff` and `secrets promote`, the built command run with `node` as a child process against the
 * local service: what they print, what they write, and the exit codes a pipeline relies on.
 */

let service: LocalService;
let cliFile: string;
/**
 * The home, config and working folder of every run: the file's own, so that no `.secrets.json` or
 * trust another test or the machine left can choose a project here.
 */
let home: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  home = realpathSync(mkdtempSync(join(tmpdir(), 'cli-promote-')));
});
afterAll(async () => {
  await service.close();
  for (const folder of [home, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

/** Every token and value the file handed out: neither command may ever print one. */
const tokens: string[] = [];
const values: string[] = [];

/** A distinct value, recorded so that no output can hold it unseen. */
const value = (label: string) => {
  const text = `${label}-${randomUUID()}`;
  values.push(text);
  return text;
};

/** An owner's project named `name`, and the environment of the command with a token of theirs of `scopes`. */
const project = async (scopes: readonly string[] = ['read:secrets', 'write:secrets'], name = 'Payments') => {
  const session = await sessionFor(service, uniqueEmail('cli'));
  const projectId = await createProject(service, session, name);
  const token = (await createToken(service, session, { name: 'ci', scopes })).rawToken;
  tokens.push(token);
  const env: CliEnv = { SECRETS_API_URL: service.baseUrl, SECRETS_TOKEN: token, SECRETS_PROJECT: projectId };
  const seed = async (environment: string, set: Record<string, string>) => {
    const reply = await arrange(service, 'PATCH', `/api/v1/projects/${projectId}/environments/${environment}/secrets`, {
      token: session,
      json: { set },
    });
    expect(reply.status).toBe(200);
  };
  return { session, projectId, env, seed };
};

/** Runs `secrets`: no output of `diff` or `promote` may hold a value or a token. */
const secrets = async (args: readonly string[], env: CliEnv) => {
  const result = await runCli(
    cliFile,
    args,
    { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env },
    { cwd: home },
  );
  const everything = `${result.stdout}\n${result.stderr}`;
  for (const secret of [...tokens, ...values]) expect(everything).not.toContain(secret);
  return result;
};

const exitOf = (result: CliResult) => ({ code: result.code, stdout: result.stdout, stderr: result.stderr });

/** The project's `secret.read` events. */
const reads = async (session: string, projectId: string) => {
  const reply = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?type=secret.read`, {
    token: session,
  });
  expect(reply.status).toBe(200);
  return reply.body.data as { details: { environment: string; secrets: { name: string; version: number }[] } }[];
};

describe('secrets diff', () => {
  it('prints each secret’s status and versions, counts them on standard error, and exits 1 when they differ', async () => {
    const { session, projectId, env, seed } = await project();
    await seed('staging', { API_KEY: value('key'), DB_URL: value('db'), NEW_FLAG: value('flag') });
    await seed('staging', { DB_URL: value('db-2') });
    await seed('production', { DB_URL: value('db-old'), OLD_FLAG: value('old') });
    const shared = value('shared');
    await seed('staging', { SHARED: shared });
    await seed('production', { SHARED: shared });

    const result = await secrets(['diff', 'staging', 'production'], env);

    expect(exitOf(result)).toEqual({
      code: 1,
      stdout: [
        'NAME      STATUS              STAGING  PRODUCTION',
        'API_KEY   only in staging     1        -',
        'DB_URL    different           2        1',
        'NEW_FLAG  only in staging     1        -',
        'OLD_FLAG  only in production  -        1',
        'SHARED    same                1        1',
        '',
      ].join('\n'),
      stderr: 'staging → production: 1 same, 1 different, 2 only in staging, 1 only in production\n',
    });
    expect(await reads(session, projectId)).toEqual([]);
  });

  it('exits 0 when both hold the same secrets with the same values, and when neither holds any', async () => {
    const { env, seed } = await project();
    const shared = value('shared');
    await seed('staging', { API_KEY: shared });
    await seed('production', { API_KEY: shared });

    const same = await secrets(['diff', 'staging', 'production'], env);
    const none = await secrets(['diff', 'development', 'production'], (await project()).env);

    expect(exitOf(same)).toEqual({
      code: 0,
      stdout: 'NAME     STATUS  STAGING  PRODUCTION\nAPI_KEY  same    1        1\n',
      stderr: 'staging → production: 1 same\n',
    });
    expect(exitOf(none)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'neither development nor production holds a secret\n',
    });
  });

  it('exits 2 when it cannot tell: the service refuses, or the command is misused', async () => {
    const { env } = await project(['write:secrets']);
    const refused = await secrets(['diff', 'staging', 'production'], env);
    expect(exitOf(refused)).toEqual({ code: 2, stdout: '', stderr: `error: ${ErrorText.scope}\n` });

    const reader = await project(['read:secrets']);
    const missing = await secrets(['diff', 'stagign', 'production'], reader.env);
    expect(exitOf(missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${ErrorText.environmentNotFound}\nDid you mean staging?\n`,
    });
    const twice = await secrets(['diff', 'staging', 'staging'], reader.env);
    expect(exitOf(twice)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: give two environments: staging is named twice\n',
    });
    const malformed = await secrets(['diff', 'Staging', 'production'], reader.env);
    expect([malformed.code, malformed.stderr]).toEqual([
      2,
      expect.stringMatching(/^error: "Staging" is not an environment name/),
    ]);
    const noProject = await secrets(['diff', 'staging', 'production'], { ...reader.env, SECRETS_PROJECT: undefined });
    expect([noProject.code, noProject.stderr]).toEqual([2, expect.stringMatching(/^error: no project/)]);
  });
});

describe('secrets promote', () => {
  it('says where it writes, writes the values into the other environment and prints each at its new version', async () => {
    const { session, projectId, env, seed } = await project(['read:secrets', 'write:secrets'], 'Payments');
    await seed('staging', { API_KEY: value('key'), DB_URL: value('db') });
    await seed('production', { DB_URL: value('db-old') });

    const result = await secrets(['promote', 'staging', 'production', 'DB_URL', 'API_KEY'], env);

    expect(exitOf(result)).toEqual({
      code: 0,
      stdout: 'API_KEY: version 1\nDB_URL: version 2\n',
      stderr: `Writing to project "Payments" (${projectId}) / production\npromoted 2 secrets from staging to production\n`,
    });
    expect(exitOf(await secrets(['diff', 'staging', 'production'], env))).toMatchObject({ code: 0 });
    const [read] = await reads(session, projectId);
    expect(read?.details).toEqual({
      ...read?.details,
      environment: 'staging',
      secrets: [
        { name: 'API_KEY', version: 1 },
        { name: 'DB_URL', version: 1 },
      ],
    });
  });

  it('names the project by its id alone for a token that may not list projects', async () => {
    const { projectId, env, seed } = await project(['write:secrets']);
    await seed('staging', { API_KEY: value('key') });

    const result = await secrets(['promote', 'staging', 'production', 'API_KEY'], env);

    expect(exitOf(result)).toEqual({
      code: 0,
      stdout: 'API_KEY: version 1\n',
      stderr: `Writing to project ${projectId} / production\npromoted 1 secret from staging to production\n`,
    });
  });

  it('into a protected environment proposes a change request, prints its id alone and the approvals it waits for', async () => {
    const { session, projectId, env, seed } = await project();
    await seed('staging', { API_KEY: value('key') });
    const protect = await arrange(service, 'PATCH', `/api/v1/projects/${projectId}/environments/production`, {
      token: session,
      json: { protected: true },
    });
    expect(protect.status).toBe(200);

    const result = await secrets(['promote', 'staging', 'production', 'API_KEY', '--note', 'Release 4.2'], env);

    const id = result.stdout.trim();
    expect(id).toMatch(/^chg_\w+$/);
    expect(exitOf(result)).toEqual({
      code: 0,
      stdout: `${id}\n`,
      stderr: `Writing to project "Payments" (${projectId}) / production\nproduction is protected: proposed as ${id}, waiting for 1 approval (secrets changes show ${id} -e production)\n`,
    });
    const request = await call(
      service,
      'GET',
      `/api/v1/projects/${projectId}/environments/production/change-requests/${id}`,
      { token: session },
    );
    expect(request.body.data).toMatchObject({
      status: 'open',
      note: 'Release 4.2',
      changes: [{ name: 'API_KEY', action: 'set', fromVersion: 0 }],
    });
    const production = await call(service, 'GET', `/api/v1/projects/${projectId}/environments/production/secrets`, {
      token: session,
    });
    expect(production.body.data).toEqual([]);
  });

  it('exits 1 with the API’s words when it refuses, naming a near secret, and writes nothing', async () => {
    const { session, projectId, env, seed } = await project();
    await seed('staging', { API_KEY: value('key') });

    const result = await secrets(['promote', 'staging', 'production', 'API_KEY', 'API_KYE'], env);

    expect(exitOf(result)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Writing to project "Payments" (${projectId}) / production\nerror: ${ErrorText.secretNotFound}\nDid you mean API_KEY?\n`,
    });
    const production = await call(service, 'GET', `/api/v1/projects/${projectId}/environments/production/secrets`, {
      token: session,
    });
    expect(production.body.data).toEqual([]);
  });

  it('exits 2 for a misuse, before anything is sent', async () => {
    const { env } = await project();
    const cases: [string[], RegExp][] = [
      [['promote', 'staging', 'production'], /^error: missing required argument 'names'/],
      [['promote', 'staging', 'staging', 'API_KEY'], /^error: give two environments: staging is named twice\n$/],
      [['promote', 'staging', 'production', '9LIVES'], /^error: "9LIVES" is not a secret name/],
      [['promote', 'staging', 'production', 'API_KEY', 'API_KEY'], /^error: API_KEY is named twice\n$/],
      [
        ['promote', 'staging', 'production', ...Array.from({ length: 26 }, (_, i) => `NAME_${i}`)],
        /^error: one promote writes at most 25 secrets; 26 were given\n$/,
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = await secrets(args, env);
      expect([args.slice(3).length, result.code, result.stderr]).toEqual([
        args.slice(3).length,
        2,
        expect.stringMatching(stderr),
      ]);
    }
  });

  it.each([[['diff']], [['promote']]])('prints help for %p --help and exits 0', async (command) => {
    const result = await secrets([...command, '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: secrets ${command.join(' ')}`));
  });
});
