import { randomUUID } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, runCli } from './cli';
import { arrange, call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * `secrets changes`, the built command run with `node` against the local service: a protected
 * environment's change requests listed, shown, proposed and closed with an API token, and the way a
 * direct write into one points to them.
 */

let service: LocalService;
let cliFile: string;
let work: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  work = mkdtempSync(join(tmpdir(), 'cli-changes-'));
  // What the service and node do once (first writes, first run of the command) is paid here, on a busy
  // machine a good part of a test's time limit, rather than by whichever test comes first.
  await runCli(cliFile, ['list'], (await protectedProject()).env);
}, 120_000);
afterAll(async () => {
  await service.close();
  for (const folder of [work, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

const PROJECT_NAME = 'Acme';
const environmentPath = (projectId: string) => `/api/v1/projects/${projectId}/environments/production`;
const requestsPath = (projectId: string) => `${environmentPath(projectId)}/change-requests`;

/** Every token the file handed out: no output may hold one. */
const tokens: string[] = [];
/** Every value the file proposed or wrote: only `show --values` may print one. */
const values: string[] = [];

const value = (label: string) => {
  const text = `${label}-${randomUUID()}`;
  values.push(text);
  return text;
};

/**
 * An owner's project whose production is protected (one approval) and holds API_KEY (written twice, so
 * that it has an earlier version) and OLD_KEY, with their current `versions`; the owner's token that
 * reads and writes its secrets; `withAdmin`, an admin who may approve. The CLI's variables name
 * production, and a home and config folder of the test's own.
 */
const protectedProject = async ({ withAdmin = false } = {}) => {
  const ownerEmail = uniqueEmail('owner');
  const owner = await sessionFor(service, ownerEmail);
  const projectId = await createProject(service, owner, PROJECT_NAME);
  let admin = '';
  if (withAdmin) {
    const adminEmail = uniqueEmail('admin');
    admin = await sessionFor(service, adminEmail);
    expect((await arrange(service, 'GET', '/api/v1/projects', { token: admin })).status).toBe(200);
    const added = await arrange(service, 'POST', `/api/v1/projects/${projectId}/members`, {
      token: owner,
      json: { email: adminEmail, role: 'admin' },
    });
    expect(added.status).toBe(200);
  }
  for (const set of [{ API_KEY: value('first'), OLD_KEY: value('old') }, { API_KEY: value('second') }]) {
    const patched = await arrange(service, 'PATCH', `${environmentPath(projectId)}/secrets`, {
      token: owner,
      json: { set },
    });
    expect(patched.status).toBe(200);
  }
  // Read back rather than assumed: a write answered 503 on a busy machine and sent again is one version more.
  const listed = await arrange(service, 'GET', `${environmentPath(projectId)}/secrets`, { token: owner });
  const versions = Object.fromEntries(
    (listed.body.data as { name: string; version: number }[]).map((secret) => [secret.name, secret.version]),
  );
  const protect = await arrange(service, 'PATCH', environmentPath(projectId), {
    token: owner,
    json: { protected: true, approvals: 1 },
  });
  expect(protect.status).toBe(200);
  const token = (await createToken(service, owner, { name: 'ci', scopes: ['read:secrets', 'write:secrets'] })).rawToken;
  tokens.push(token);
  const env: CliEnv = {
    HOME: realpathSync(mkdtempSync(join(work, 'home-'))),
    XDG_CONFIG_HOME: mkdtempSync(join(work, 'config-')),
    SECRETS_API_URL: service.baseUrl,
    SECRETS_TOKEN: token,
    SECRETS_PROJECT: projectId,
    SECRETS_ENV: 'production',
  };
  return { owner, ownerEmail, admin, projectId, versions, env };
};

/** Runs `secrets`; no output may hold a token, and only `changes show --values` a value. */
const secrets = async (args: readonly string[], env: CliEnv, input?: string) => {
  const result = await runCli(cliFile, args, env, { input });
  const everything = `${result.stdout}\n${result.stderr}`;
  for (const token of tokens) expect(everything).not.toContain(token);
  if (!args.includes('--values')) for (const secret of values) expect(everything).not.toContain(secret);
  return result;
};

/** A change request proposed through the API with a session, for a test of what follows. */
const proposedBy = async (session: string, projectId: string, json: unknown) => {
  const reply = await arrange(service, 'POST', requestsPath(projectId), { token: session, json });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
};

const storedRequest = async (projectId: string, id: string, session: string) =>
  (await call(service, 'GET', `${requestsPath(projectId)}/${id}`, { token: session })).body.data as {
    status: string;
    note: string | null;
    changes: unknown[];
  };

describe('secrets changes propose', () => {
  it('proposes a value from standard input with a note, prints the id and the approvals it waits for, and writes nothing', async () => {
    const { owner, projectId, versions, env } = await protectedProject();
    const proposed = value('proposed');
    const result = await secrets(['changes', 'propose', '--set', 'API_KEY', '--note', 'Rotate the key'], env, proposed);
    expect(result.code).toBe(0);
    const id = result.stdout.trim();
    expect(id).toMatch(/^chg_[0-9A-Za-z]{16}$/);
    expect(result.stderr).toBe(
      `Proposing to project "${PROJECT_NAME}" (${projectId}) / production\n${id}: waiting for 1 approval\n`,
    );
    expect(await storedRequest(projectId, id, owner)).toMatchObject({
      status: 'open',
      note: 'Rotate the key',
      changes: [{ name: 'API_KEY', action: 'set', fromVersion: versions.API_KEY }],
    });
    const values = await call(service, 'GET', `${requestsPath(projectId)}/${id}/values`, { token: owner });
    expect(values.body.data).toEqual({ API_KEY: proposed });
    const current = await call(service, 'GET', `${environmentPath(projectId)}/secrets/API_KEY`, { token: owner });
    expect(current.body.data.version).toBe(versions.API_KEY);
  });

  it('proposes a .env file’s values with deletes and a restore, as one request', async () => {
    const { owner, projectId, versions, env } = await protectedProject();
    const file = join(work, `${randomUUID()}.env`);
    const fresh = value('fresh');
    writeFileSync(file, `NEW_KEY=${fresh}\n`);
    const result = await secrets(
      ['changes', 'propose', '--from-env-file', file, '--delete', 'OLD_KEY', '--restore', 'API_KEY:1'],
      env,
    );
    expect(result.code).toBe(0);
    expect((await storedRequest(projectId, result.stdout.trim(), owner)).changes).toEqual([
      { name: 'NEW_KEY', action: 'set', fromVersion: 0, restoreVersion: null },
      { name: 'OLD_KEY', action: 'delete', fromVersion: versions.OLD_KEY, restoreVersion: null },
      { name: 'API_KEY', action: 'restore', fromVersion: versions.API_KEY, restoreVersion: 1 },
    ]);
  });

  it('refuses a value on the command line, and a proposal of nothing, before anything is sent', async () => {
    const { env } = await protectedProject();
    const secret = value('typed');
    const typed = await runCli(cliFile, ['changes', 'propose', '--set', `API_KEY=${secret}`], env);
    expect(typed.code).toBe(2);
    expect(typed.stderr).not.toContain(secret);
    expect(typed.stderr).toContain('--set takes a name alone');
    const nothing = await secrets(['changes', 'propose', '--note', 'nothing'], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^error: nothing to propose/);
  });
});

describe('secrets changes list', () => {
  it('lists the environment’s requests newest first, as a table and as JSON, and of one status', async () => {
    const { owner, ownerEmail, projectId, env } = await protectedProject();
    const first = await proposedBy(owner, projectId, { delete: ['OLD_KEY'], note: 'Drop the old key' });
    const second = await proposedBy(owner, projectId, { set: { API_KEY: value('next'), NEW_KEY: value('new') } });
    expect(
      (await call(service, 'POST', `${requestsPath(projectId)}/${first.id}/cancel`, { token: owner })).status,
    ).toBe(200);

    const table = await secrets(['changes'], env);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header?.split(/\s+/)).toEqual(['ID', 'STATUS', 'APPROVALS', 'AUTHOR', 'AGE', 'CHANGES', 'NOTE']);
    expect(rows.map((row) => row.split(/\s{2,}/))).toEqual([
      [second.id, 'open', '0/1', ownerEmail, expect.stringMatching(/^\d+s$/), '2'],
      [first.id, 'cancelled', '0/1', ownerEmail, expect.stringMatching(/^\d+s$/), '1', 'Drop the old key'],
    ]);

    const open = await secrets(['changes', 'list', '--status', 'open', '--format', 'json'], env);
    expect(open.code).toBe(0);
    expect((JSON.parse(open.stdout) as { id: string }[]).map((request) => request.id)).toEqual([second.id]);
  });

  it('is a usage error for a status the API does not know', async () => {
    const { env } = await protectedProject();
    const result = await secrets(['changes', 'list', '--status', 'pending'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });
});

describe('secrets changes show', () => {
  it('shows the request and its changes by name, without values', async () => {
    const { owner, ownerEmail, projectId, versions, env } = await protectedProject();
    const { id } = await proposedBy(owner, projectId, {
      set: { API_KEY: value('next'), NEW_KEY: value('new') },
      delete: ['OLD_KEY'],
      note: 'Rotate',
    });
    const result = await secrets(['changes', 'show', id], env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`${id}  open, 0 of 1 approval\n`);
    expect(result.stdout).toMatch(new RegExp(`author +${ownerEmail}\n`));
    expect(result.stdout).toMatch(/note +Rotate\n/);
    expect(result.stdout).toContain(
      `\n  set API_KEY (v${versions.API_KEY} → new)\n  set NEW_KEY (none → new)\n  delete OLD_KEY (at v${versions.OLD_KEY})\n`,
    );
  });

  it('with --values, prints the proposed values and says on standard error that the read was recorded', async () => {
    const { owner, projectId, versions, env } = await protectedProject();
    const next = `${value('next')}\n"quoted"`;
    const { id } = await proposedBy(owner, projectId, { set: { API_KEY: next } });
    const result = await secrets(['changes', 'show', id, '--values'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  set API_KEY (v${versions.API_KEY} → new) = ${JSON.stringify(next)}\n`);
    expect(result.stderr).toBe('The read of these values is recorded in the project’s audit trail.\n');
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?limit=100`, { token: owner });
    const reads = (trail.body.data as { type: string; target: { changeRequestId: string | null } }[]).filter(
      (event) => event.type === 'secret.read' && event.target.changeRequestId === id,
    );
    expect(reads).toHaveLength(1);
  });

  it('answers the API’s text for an unknown id, and refuses one of no id’s form before sending it', async () => {
    const { env } = await protectedProject();
    const unknown = await secrets(['changes', 'show', 'chg_0000000000000000'], env);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.changeRequestNotFound}\n`,
    });
    const malformed = await secrets(['changes', 'show', 'nope'], env);
    expect({ code: malformed.code, stderr: malformed.stderr }).toEqual({
      code: 2,
      stderr: 'error: "nope" is not a change request id (chg_…)\n',
    });
  });
});

describe('secrets changes cancel, approve and reject', () => {
  it('cancels a request its token’s owner proposed', async () => {
    const { owner, projectId, env } = await protectedProject();
    const proposed = await secrets(['changes', 'propose', '--delete', 'OLD_KEY'], env);
    const id = proposed.stdout.trim();
    const result = await secrets(['changes', 'cancel', id], env);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: `${id}: cancelled\n` });
    expect((await storedRequest(projectId, id, owner)).status).toBe('cancelled');
    const again = await secrets(['changes', 'cancel', id], env);
    expect({ code: again.code, stderr: again.stderr }).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.changeRequestNotOpen}\n`,
    });
  });

  it('refuses to approve or reject with an API token, in the API’s words, and points to the dashboard', async () => {
    const { admin, projectId, env } = await protectedProject({ withAdmin: true });
    const { id } = await proposedBy(admin, projectId, { delete: ['OLD_KEY'] });
    for (const step of ['approve', 'reject']) {
      const result = await secrets(['changes', step, id], env);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: ${ErrorText.sessionRequired}\nOnly a person signed in to the dashboard approves or rejects a change request: open it on the Changes tab of production.\n`,
      );
    }
    expect((await storedRequest(projectId, id, admin)).status).toBe('open');
  });

  it('approves in a session: the request is applied', async () => {
    const { admin, projectId, env } = await protectedProject({ withAdmin: true });
    const proposed = await secrets(['changes', 'propose', '--delete', 'OLD_KEY'], env);
    const id = proposed.stdout.trim();
    const result = await secrets(['changes', 'approve', id], { ...env, SECRETS_TOKEN: admin });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: `${id}: approved and applied\n` });
    expect((await storedRequest(projectId, id, admin)).status).toBe('applied');
  });
});

describe('a direct write into a protected environment', () => {
  it('prints the API’s refusal and the secrets changes propose that would do it', async () => {
    const { env } = await protectedProject();
    const result = await secrets(['set', 'API_KEY'], env, value('direct'));
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').slice(1)).toEqual([
      `error: ${ErrorText.environmentProtected}`,
      'production changes only through change requests: propose this one with `secrets changes propose --set API_KEY`, the value on standard input.',
      '',
    ]);
  });

  it('points delete, restore and import to their proposals too', async () => {
    const { env } = await protectedProject();
    const file = join(work, `${randomUUID()}.env`);
    writeFileSync(file, `NEW_KEY=${value('imported')}\n`);
    for (const [args, proposal] of [
      [['delete', 'OLD_KEY'], '--delete OLD_KEY'],
      [['restore', 'API_KEY', '--version', '1'], '--restore API_KEY:1'],
      [['import', file], `--from-env-file ${file}`],
    ] as const) {
      const result = await secrets(args, env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `error: ${ErrorText.environmentProtected}\nproduction changes only through change requests: propose this one with \`secrets changes propose ${proposal}\``,
      );
    }
  });
});
