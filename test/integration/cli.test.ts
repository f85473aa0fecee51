import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ErrorText } from '@contract/errors';
import { SECRET_NAME_RULE } from '@contract/identifiers';
import { parse as parseDotenv } from 'dotenv';
import { expand } from 'dotenv-expand';
import { parse as parseYaml } from 'yaml';
import { writeSnapshot } from '../../cli/fallback';
import { version as cliVersion } from '../../cli/package.json';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, type CliResult, collect, runCli, spawnCli, startRecorder, startRelay } from './cli';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The built `secrets` command, run with `node` as a child process against the local service: what it
 * injects, prints and writes, and the exit codes a pipeline relies on.
 */

let service: LocalService;
let cliFile: string;
let work: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  work = mkdtempSync(join(tmpdir(), 'cli-work-'));
});
afterAll(async () => {
  await service.close();
  for (const folder of [work, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

/** A value no format may bend: a newline, both quotes, `$`, `#` and backslashes. */
// `${NOPE:-x}` is a shell expansion, and no reference to a secret (those are `${NAME}`), so it reads as written.
const TRICKY = `first line\nsecond "double" 'single' $HOME \${NOPE:-x} # not a comment \\ back\\slash \\n end`;

/** Every token and value the file handed out: none may appear in output that is not a value's own. */
const tokens: string[] = [];
const values: string[] = [TRICKY];

/**
 * A home folder and a config folder of one test's own (`HOME`, `XDG_CONFIG_HOME`), so that what one
 * test trusts no other sees, and a search from inside the home folder stops there.
 */
const ownHome = () => {
  const home = realpathSync(mkdtempSync(join(work, 'home-')));
  const config = mkdtempSync(join(work, 'config-'));
  return { home, config, env: { HOME: home, XDG_CONFIG_HOME: config } satisfies CliEnv };
};

/** The name of every project the file makes: what a write says it writes to. */
const PROJECT_NAME = 'Acme';

/** What a write says on standard error before it writes. */
const writingTo = (projectId: string, environment = 'development') =>
  `Writing to project "${PROJECT_NAME}" (${projectId}) / ${environment}\n`;

/** An owner with a project, and a token of theirs that reads and writes its secrets. */
const project = async () => {
  const session = await sessionFor(service, uniqueEmail('cli'));
  const projectId = await createProject(service, session, PROJECT_NAME);
  const token = (await createToken(service, session, { name: 'ci', scopes: ['read:secrets', 'write:secrets'] }))
    .rawToken;
  tokens.push(token);
  const { home, config, env: homeEnv } = ownHome();
  const env: CliEnv = {
    ...homeEnv,
    SECRETS_API_URL: service.baseUrl,
    SECRETS_TOKEN: token,
    SECRETS_PROJECT: projectId,
    SECRETS_ENV: 'development',
  };
  const put = async (name: string, value: string) => {
    values.push(value);
    const reply = await call(service, 'PUT', `${secretsPath(projectId)}/${name}`, { token: session, json: { value } });
    expect([200, 201]).toContain(reply.status);
  };
  return { session, projectId, token, env, put, home, config };
};

const secretsPath = (projectId: string) => `/api/v1/projects/${projectId}/environments/development/secrets`;

/** A distinct value, recorded so that no stray output can hold it unseen. */
const value = (label: string) => {
  const text = `${label}-${randomUUID()}`;
  values.push(text);
  return text;
};

/**
 * Runs `secrets`; the outputs of every command but `get`, `export`, `reveal` and `run` (whose child
 * prints what it likes) must hold no value and no token, and no output may ever hold a token.
 */
const secrets = async (args: readonly string[], env: CliEnv, options: { input?: string; cwd?: string } = {}) => {
  const result = await runCli(cliFile, args, env, options);
  const everything = `${result.stdout}\n${result.stderr}`;
  for (const token of tokens) expect(everything).not.toContain(token);
  if (!['get', 'export', 'reveal', 'run'].includes(args[0] ?? '')) {
    for (const secret of values) expect(everything).not.toContain(secret);
  }
  return result;
};

/** A node one-liner as a child command. */
const nodeChild = (script: string) => ['--', process.execPath, '-e', script];
const printEnv = (...names: string[]) =>
  nodeChild(`process.stdout.write(JSON.stringify({${names.map((n) => `${n}: process.env.${n} ?? null`).join(',')}}))`);

/** Ends a process a failed test left behind; one already gone is fine. */
const killIfRunning = (pid: number) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone: what a passing test leaves.
  }
};

const exitOf = (result: CliResult) => ({ code: result.code, stderr: result.stderr });

describe('secrets run', () => {
  it('starts the command with the environment’s secrets and exits 0 with it', async () => {
    const { env, put, token } = await project();
    const plain = value('plain');
    await put('API_KEY', plain);
    await put('TRICKY', TRICKY);
    const result = await secrets(['run', ...printEnv('API_KEY', 'TRICKY', 'SECRETS_TOKEN', 'PATH')], env);
    expect(exitOf(result)).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({
      API_KEY: plain,
      TRICKY,
      SECRETS_TOKEN: null,
      PATH: process.env.PATH,
    });
    expect(result.stdout).not.toContain(token);
  });

  it('exits with the command’s own exit code, 3', async () => {
    const { env } = await project();
    const result = await secrets(['run', ...nodeChild('process.exit(3)')], env);
    expect(result.code).toBe(3);
  });

  it('passes SIGTERM on to the command and exits 128 + 15 once it has ended', async () => {
    const { env, put } = await project();
    await put('A', value('a'));
    const child = spawnCli(
      cliFile,
      ['run', ...nodeChild("process.stdout.write('ready ' + process.pid + '\\n'); setInterval(() => {}, 1000)")],
      env,
    );
    const output = collect(child);
    const exited = once(child, 'exit');
    child.stdin?.end();
    while (!/ready \d+/.test(output().stdout)) await once(child.stdout as NodeJS.EventEmitter, 'data');
    const grandchild = Number(/ready (\d+)/.exec(output().stdout)?.[1]);
    try {
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 143, signal: null });
      expect(() => process.kill(grandchild, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    } finally {
      // A command left running by a failure would keep the run from ending.
      killIfRunning(grandchild);
    }
  });

  it('overrides a variable already set, and keeps it with --preserve-env', async () => {
    const { env, put } = await project();
    const secret = value('from-secrets');
    await put('SHARED', secret);
    const overridden = await secrets(['run', ...printEnv('SHARED')], { ...env, SHARED: 'from-shell' });
    expect(JSON.parse(overridden.stdout)).toEqual({ SHARED: secret });
    const preserved = await secrets(['run', '--preserve-env', ...printEnv('SHARED')], { ...env, SHARED: 'from-shell' });
    expect(JSON.parse(preserved.stdout)).toEqual({ SHARED: 'from-shell' });
  });

  it('does not start the command when the secrets cannot be read', async () => {
    const { env } = await project();
    const mark = join(work, `started-${randomUUID()}`);
    const result = await secrets(['run', ...nodeChild(`require('fs').writeFileSync(${JSON.stringify(mark)}, '')`)], {
      ...env,
      SECRETS_TOKEN: 'svc_live_not_a_token',
    });
    expect(exitOf(result)).toEqual({ code: 1, stderr: `error: ${ErrorText.unauthorized}\n` });
    expect(() => statSync(mark)).toThrow();
  });
});

describe('secrets run --fallback', () => {
  const PASSPHRASE = 'correct horse battery staple';
  const relays: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  const HOUR = 60 * 60 * 1000;
  const DAY = 24 * HOUR;
  /** Where a run with `env` reads its secrets, at `api`: what a snapshot it may use records. */
  const sourceOf = (env: CliEnv, api: string) => ({
    api,
    projectId: String(env.SECRETS_PROJECT),
    environment: String(env.SECRETS_ENV),
  });

  /** A project whose API is reached through a relay the test can stop, and a fresh snapshot path. */
  const behindRelay = async () => {
    const owner = await project();
    const relay = await startRelay(service.port);
    relays.push(relay);
    const snapshot = join(work, `snapshot-${randomUUID()}`);
    const env: CliEnv = { ...owner.env, SECRETS_API_URL: relay.url, SECRETS_FALLBACK_PASSPHRASE: PASSPHRASE };
    return { ...owner, relay, snapshot, env };
  };

  it('writes an encrypted snapshot readable by its owner only, and runs from it when the API is stopped', async () => {
    const { env, put, relay, snapshot } = await behindRelay();
    const secret = value('kept');
    await put('KEPT', secret);
    const online = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], env);
    expect(exitOf(online)).toEqual({ code: 0, stderr: '' });
    expect(statSync(snapshot).mode & 0o777).toBe(0o600);
    expect(readFileSync(snapshot, 'utf8')).not.toContain(secret);

    await relay.stop();
    const offline = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], env);
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout)).toEqual({ KEPT: secret });
    expect(offline.stderr).toMatch(
      /^secrets: The service at .+ cannot be reached \(ECONNREFUSED\); running with the fallback snapshot of \d{4}-/,
    );
  });

  it('runs from the snapshot when the API answers 500, and says so', async () => {
    const { env, snapshot } = await behindRelay();
    const failing = createHttpServer((_request, response) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ success: false, error: ErrorText.internal }));
    });
    failing.listen(0, '127.0.0.1');
    await once(failing, 'listening');
    try {
      const { port } = failing.address() as { port: number };
      writeSnapshot(snapshot, { KEPT: 'from-snapshot' }, PASSPHRASE, sourceOf(env, `http://127.0.0.1:${port}`));
      const result = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], {
        ...env,
        SECRETS_API_URL: `http://127.0.0.1:${port}`,
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ KEPT: 'from-snapshot' });
      expect(result.stderr).toMatch(
        new RegExp(
          `^secrets: the API answered 500 ${ErrorText.internal}; running with the fallback snapshot of \\d{4}-`,
        ),
      );
    } finally {
      failing.closeAllConnections();
      failing.close();
    }
  });

  it('gives up on an API that never answers after --timeout, and runs from the snapshot then', async () => {
    const { env, snapshot } = await behindRelay();
    // Takes every request and never answers it.
    const silent = createHttpServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as { port: number };
      const mute = { ...env, SECRETS_API_URL: `http://127.0.0.1:${port}` };
      const listed = await secrets(['list', '--timeout', '1s'], mute);
      expect(listed.code).toBe(1);
      expect(listed.stderr).toBe(`error: The service at http://127.0.0.1:${port}/ did not answer within 1000 ms\n`);
      writeSnapshot(snapshot, { KEPT: 'from-snapshot' }, PASSPHRASE, sourceOf(env, `http://127.0.0.1:${port}`));
      const result = await secrets(['run', '--timeout', '1s', '--fallback', snapshot, ...printEnv('KEPT')], mute);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ KEPT: 'from-snapshot' });
      expect(result.stderr).toMatch(/running with the fallback snapshot of \d{4}-/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('refuses a snapshot with a wrong passphrase, and does not start the command', async () => {
    const { env, put, relay, snapshot } = await behindRelay();
    await put('KEPT', value('kept'));
    expect((await secrets(['run', '--fallback', snapshot, ...nodeChild('')], env)).code).toBe(0);
    await relay.stop();
    const result = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], {
      ...env,
      SECRETS_FALLBACK_PASSPHRASE: 'wrong but long enough',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'cannot be reached (ECONNREFUSED), and the fallback snapshot cannot be opened with its key',
    );
  });

  it('never runs another environment or project from a snapshot: it stands in only for where it was read', async () => {
    const { env, put, relay, snapshot } = await behindRelay();
    await put('KEPT', value('kept'));
    expect((await secrets(['run', '--fallback', snapshot, ...nodeChild('')], env)).code).toBe(0);
    await relay.stop();
    const production = await secrets(['run', '-e', 'production', '--fallback', snapshot, ...printEnv('KEPT')], env);
    expect(production.code).toBe(1);
    expect(production.stdout).toBe('');
    expect(production.stderr).toContain(
      `the fallback snapshot at ${snapshot} is of project ${env.SECRETS_PROJECT} / development at ${relay.url}, not of project ${env.SECRETS_PROJECT} / production at ${relay.url}: it is not used`,
    );
    const other = await project();
    const otherProject = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], {
      ...env,
      SECRETS_PROJECT: other.projectId,
    });
    expect(otherProject.code).toBe(1);
    expect(otherProject.stderr).toContain('it is not used');
  });

  it('refuses a snapshot older than --fallback-max-age (24h by default)', async () => {
    const { env, relay, snapshot } = await behindRelay();
    await relay.stop();
    writeSnapshot(snapshot, { OLD: 'old' }, PASSPHRASE, sourceOf(env, relay.url), new Date(Date.now() - DAY - HOUR));
    const stale = await secrets(['run', '--fallback', snapshot, ...printEnv('OLD')], env);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain('is older than --fallback-max-age allows');
    const allowed = await secrets(
      ['run', '--fallback', snapshot, '--fallback-max-age', '26h', ...printEnv('OLD')],
      env,
    );
    expect(JSON.parse(allowed.stdout)).toEqual({ OLD: 'old' });
  });

  it('never runs from the snapshot when the API refuses the token (401)', async () => {
    const { env, put, snapshot } = await behindRelay();
    await put('KEPT', value('kept'));
    expect((await secrets(['run', '--fallback', snapshot, ...nodeChild('')], env)).code).toBe(0);
    const result = await secrets(['run', '--fallback', snapshot, ...printEnv('KEPT')], {
      ...env,
      SECRETS_TOKEN: 'svc_live_not_a_token',
    });
    expect(exitOf(result)).toEqual({ code: 1, stderr: `error: ${ErrorText.unauthorized}\n` });
    expect(result.stdout).toBe('');
  });

  it('says both that the API was unreachable, where, and why no snapshot could stand in', async () => {
    const { env, relay, snapshot } = await behindRelay();
    await relay.stop();
    const result = await secrets(['run', '--fallback', snapshot, ...nodeChild('')], env);
    expect(exitOf(result)).toEqual({
      code: 1,
      stderr: `error: The service at ${relay.url}/ cannot be reached (ECONNREFUSED), and no fallback snapshot can be read at ${snapshot} (no such file)\n`,
    });
  });

  it('is a usage error without SECRETS_FALLBACK_PASSPHRASE', async () => {
    const { env, snapshot } = await behindRelay();
    const result = await secrets(['run', '--fallback', snapshot, ...nodeChild('')], {
      ...env,
      SECRETS_FALLBACK_PASSPHRASE: undefined,
    });
    expect(exitOf(result)).toEqual({
      code: 2,
      stderr: 'error: --fallback needs SECRETS_FALLBACK_PASSPHRASE or SECRETS_FALLBACK_KEY_FILE\n',
    });
  });
});

describe('secrets export', () => {
  it.each([
    // dotenv-expand reads a dotenv export exactly (dotenv keeps the backslash before a $ it needs).
    ['dotenv', (text: string) => expand({ parsed: parseDotenv(text), processEnv: {} }).parsed],
    ['json', (text: string) => JSON.parse(text)],
    ['yaml', (text: string) => parseYaml(text)],
    [
      'shell',
      (text: string) => {
        const file = join(work, `export-${randomUUID()}.sh`);
        writeFileSync(file, text);
        // sh sources the file; a child started from it prints what it exported.
        const script = 'process.stdout.write(JSON.stringify({ TRICKY: process.env.TRICKY, PLAIN: process.env.PLAIN }))';
        return JSON.parse(
          execFileSync('sh', ['-c', `. "${file}" && "$NODE" -e "$SCRIPT"`], {
            encoding: 'utf8',
            env: { PATH: process.env.PATH, NODE: process.execPath, SCRIPT: script },
          }),
        );
      },
    ],
  ])('round-trips every value in %s', async (format, readBack) => {
    const { env, put } = await project();
    const plain = value('plain');
    await put('TRICKY', TRICKY);
    await put('PLAIN', plain);
    const result = await secrets(['export', '--format', format], env);
    // TRICKY holds a ' and a $: a dotenv export gives it to dotenv readers only, and says so by name; and
    // a $HOME, which it writes as \$HOME so that dotenv-expand expands nothing, and says so too.
    const said =
      format === 'dotenv'
        ? /^secrets: TRICKY: each \$ written as \\\$, so that dotenv-expand expands nothing.*\nsecrets: TRICKY: for dotenv readers only; a shell sourcing/
        : /^$/;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(said);
    expect(readBack(result.stdout)).toEqual({ PLAIN: plain, TRICKY });
  });

  it('writes dotenv by default, and refuses a value dotenv cannot read back rather than bend it', async () => {
    const { env, put } = await project();
    await put('A', value('a'));
    expect(parseDotenv((await secrets(['export'], env)).stdout)).toEqual({ A: expect.stringMatching(/^a-/) });
    // dotenv turns every carriage return into a line break, so no quoting brings one back.
    await put('CARRIAGE', 'windows\r\nline');
    const refused = await secrets(['export'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error: the value of CARRIAGE cannot be written so that dotenv reads it back');
    expect(JSON.parse((await secrets(['export', '--format', 'json'], env)).stdout).CARRIAGE).toBe('windows\r\nline');
  });
});

describe('references', () => {
  it('get and export print values with their references resolved, and as stored with --raw', async () => {
    const { env, put } = await project();
    const host = value('host');
    await put('HOST', host);
    await put('URL', `db://\${HOST}:5432`);

    expect((await secrets(['get', 'URL'], env)).stdout).toBe(`db://${host}:5432`);
    expect((await secrets(['get', 'URL', '--raw'], env)).stdout).toBe(`db://\${HOST}:5432`);
    const exported = JSON.parse((await secrets(['export', '--format', 'json'], env)).stdout);
    expect(exported).toEqual({ HOST: host, URL: `db://${host}:5432` });
    const raw = JSON.parse((await secrets(['export', '--format', 'json', '--raw'], env)).stdout);
    expect(raw).toEqual({ HOST: host, URL: `db://\${HOST}:5432` });
  });

  it('says the API’s refusal of a reference that cannot be resolved, and prints no value', async () => {
    const { env, put } = await project();
    await put('URL', `db://\${NOWHERE}`);
    const result = await secrets(['get', 'URL'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Secret reference cannot be resolved');
  });
});

describe('secrets set, get, list, history, restore, delete, environments', () => {
  it('sets a value from standard input, byte for byte, and prints only its version', async () => {
    const { env, projectId } = await project();
    values.push(TRICKY);
    // A trailing line break is part of the value, as a key file's is.
    const set = await secrets(['set', 'FROM_STDIN'], env, { input: `${TRICKY}\n` });
    expect(exitOf(set)).toEqual({ code: 0, stderr: writingTo(projectId) });
    expect(set.stdout).toBe('FROM_STDIN: version 1 (created)\n');
    const dash = await secrets(['set', 'FROM_STDIN', '-'], env, { input: `${TRICKY}!` });
    expect(dash.stdout).toBe('FROM_STDIN: version 2\n');
    expect((await secrets(['get', 'FROM_STDIN', '--version', '1'], env)).stdout).toBe(`${TRICKY}\n`);
    expect((await secrets(['get', 'FROM_STDIN'], env)).stdout).toBe(`${TRICKY}!`);
  });

  it('checks the version with --expect-version, and answers the API’s text on a conflict', async () => {
    const { env, put, projectId } = await project();
    await put('CAS', value('one'));
    const conflict = await secrets(['set', 'CAS', '--expect-version', '0'], env, { input: value('two') });
    expect(exitOf(conflict)).toEqual({
      code: 1,
      stderr: `${writingTo(projectId)}error: ${ErrorText.secretConflict}\nCAS is at version 1, not 0.\n`,
    });
    const ok = await secrets(['set', 'CAS', '--expect-version', '1'], env, { input: value('three') });
    expect(ok.stdout).toBe('CAS: version 2\n');
    await secrets(['delete', 'CAS'], env);
    const deleted = await secrets(['set', 'CAS', '--expect-version', '2'], env, { input: value('four') });
    expect(exitOf(deleted)).toEqual({
      code: 1,
      stderr: `${writingTo(projectId)}error: ${ErrorText.secretConflict}\nCAS is deleted (its last version is 3): --expect-version 0 writes it again.\n`,
    });
  });

  it('says on standard error, before each write, the project’s name and id and the environment it writes to', async () => {
    const { env, projectId, put } = await project();
    await put('NAMED', value('v1'));
    const recorder = await startRecorder(service.port);
    try {
      const viaRecorder = { ...env, SECRETS_API_URL: recorder.url };
      const set = await secrets(['set', 'NAMED'], viaRecorder, { input: value('v2') });
      expect(set).toMatchObject({ code: 0, stdout: 'NAMED: version 2\n', stderr: writingTo(projectId) });
      // One call more than the write, for the project's name.
      expect(recorder.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        'GET /api/v1/projects',
        `PUT ${secretsPath(projectId)}/NAMED`,
      ]);
    } finally {
      await recorder.stop();
    }
    const staging = await secrets(['set', 'NAMED', '-e', 'staging'], env, { input: value('s1') });
    expect(staging.stderr).toBe(writingTo(projectId, 'staging'));
    expect((await secrets(['restore', 'NAMED', '--version', '1'], env)).stderr).toBe(writingTo(projectId));
    expect((await secrets(['delete', 'NAMED'], env)).stderr).toBe(writingTo(projectId));
  });

  it('names the project by its id alone when the token may not list projects (write:secrets only)', async () => {
    const { env, projectId, session } = await project();
    const writer = await createToken(service, session, { name: 'writer', scopes: ['write:secrets'] });
    tokens.push(writer.rawToken);
    const set = await secrets(['set', 'WRITTEN'], { ...env, SECRETS_TOKEN: writer.rawToken }, { input: value('w') });
    expect(set).toMatchObject({
      code: 0,
      stdout: 'WRITTEN: version 1 (created)\n',
      stderr: `Writing to project ${projectId} / development\n`,
    });
  });

  it('refuses a name that is no secret’s before calling the API, in the same words for get and set', async () => {
    const { env } = await project();
    const recorder = await startRecorder(service.port);
    try {
      const viaRecorder = { ...env, SECRETS_API_URL: recorder.url };
      const rule = `error: "bad-name" is not a secret name: ${SECRET_NAME_RULE}\n`;
      for (const args of [
        ['get', 'bad-name'],
        ['set', 'bad-name', 'x'],
        ['history', 'bad-name'],
        ['delete', 'bad-name'],
      ]) {
        expect([args[0], exitOf(await secrets(args, viaRecorder))]).toEqual([args[0], { code: 2, stderr: rule }]);
      }
      expect(recorder.requests).toEqual([]);
    } finally {
      await recorder.stop();
    }
  });

  it('says which near name was meant when a secret or an environment is not found, from the names the caller may list', async () => {
    const { env, put } = await project();
    await put('API_KEY', value('key'));
    expect(exitOf(await secrets(['get', 'api_key'], env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.secretNotFound}\nDid you mean API_KEY?\n`,
    });
    expect(exitOf(await secrets(['get', 'APY_KEY'], env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.secretNotFound}\nDid you mean API_KEY?\n`,
    });
    expect(exitOf(await secrets(['get', 'NOTHING_LIKE_IT'], env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.secretNotFound}\n`,
    });
    expect(exitOf(await secrets(['list', '--env', 'stagign'], env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.environmentNotFound}\nDid you mean staging?\n`,
    });
  });

  it('lists names, versions and writers; shows history; restores; deletes; lists environments', async () => {
    const { env, put } = await project();
    await put('LISTED', value('v1'));
    await put('LISTED', value('v2'));
    const list = await secrets(['list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+VERSION\s+UPDATED\s+BY\nLISTED\s+2\s+\d{4}-\S+\s+cli-\S+@example\.com\n$/);

    const restored = await secrets(['restore', 'LISTED', '--version', '1'], env);
    expect(restored.stdout).toBe('LISTED: version 1 restored as version 3\n');
    expect((await secrets(['get', 'LISTED'], env)).stdout).toMatch(/^v1-/);

    expect((await secrets(['delete', 'LISTED'], env)).stdout).toBe('LISTED: deleted\n');
    const history = await secrets(['history', 'LISTED'], env);
    expect(history.stdout.split('\n').map((line) => line.split(/\s+/)[0])).toEqual(['VERSION', '4', '3', '2', '1', '']);
    expect(history.stdout.split('\n')[1]).toMatch(/deleted$/);
    expect((await secrets(['list'], env)).stdout).toBe('NAME  VERSION  UPDATED  BY\n');

    const environments = await secrets(['environments'], env);
    expect(environments.stdout.split('\n').map((line) => line.split(/\s+/)[0])).toEqual(
      expect.arrayContaining(['NAME', 'development', 'production', 'staging']),
    );
  });

  it('setup writes .secrets.json and trusts it, so it is found from a folder below; a flag wins over it', async () => {
    const { env, projectId, put, home, config } = await project();
    await put('FOUND', value('found'));
    const folder = join(home, 'repo');
    mkdirSync(join(folder, 'deep', 'er'), { recursive: true });
    const noTarget = { ...env, SECRETS_PROJECT: undefined, SECRETS_ENV: undefined };
    const setup = await secrets(['setup', '--project', projectId, '--env', 'development'], noTarget, { cwd: folder });
    expect(setup).toMatchObject({
      code: 0,
      stdout: `wrote ${join(folder, '.secrets.json')} and trusted it\n`,
      stderr: writingTo(projectId),
    });
    expect(JSON.parse(readFileSync(join(folder, '.secrets.json'), 'utf8'))).toEqual({
      project: projectId,
      environment: 'development',
    });
    const store = join(config, 'secrets', 'trusted.json');
    expect(Object.keys(JSON.parse(readFileSync(store, 'utf8')).folders)).toEqual([folder]);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store)).mode & 0o777).toBe(0o700);
    const listed = await secrets(['list'], noTarget, { cwd: join(folder, 'deep', 'er') });
    expect(listed.stdout).toContain('FOUND');
    const staging = await secrets(['list', '--env', 'staging'], noTarget, { cwd: join(folder, 'deep', 'er') });
    expect(staging.stdout).toBe('NAME  VERSION  UPDATED  BY\n');
  });

  it('does not use a .secrets.json above the repository’s root (the folder holding .git)', async () => {
    const { env, projectId, home } = await project();
    const noTarget = { ...env, SECRETS_PROJECT: undefined, SECRETS_ENV: undefined };
    const outer = join(home, 'outer');
    mkdirSync(join(outer, 'repo', '.git'), { recursive: true });
    mkdirSync(join(outer, 'repo', 'src'));
    const setup = await secrets(['setup', '--project', projectId, '--env', 'development'], noTarget, { cwd: outer });
    expect(setup.code).toBe(0);
    expect((await secrets(['list'], noTarget, { cwd: outer })).code).toBe(0);
    const inRepo = await secrets(['list'], noTarget, { cwd: join(outer, 'repo', 'src') });
    expect(exitOf(inRepo)).toEqual({ code: 2, stderr: expect.stringMatching(/^error: no project/) });
  });

  it('setup refuses an environment the project does not have, naming the project and its environments, and writes nothing', async () => {
    const { env, projectId, home, config } = await project();
    const folder = join(home, 'setup');
    mkdirSync(folder);
    const doesNotExist = (name: string) =>
      `error: Environment "${name}" does not exist in project "${PROJECT_NAME}" (${projectId}); its environments: development, production, staging.\n`;
    const unknown = await secrets(['setup', '--project', projectId, '--env', 'qa'], env, { cwd: folder });
    expect(exitOf(unknown)).toEqual({ code: 1, stderr: doesNotExist('qa') });
    const typo = await secrets(['setup', '--project', projectId, '--env', 'stagign'], env, { cwd: folder });
    expect(exitOf(typo)).toEqual({ code: 1, stderr: `${doesNotExist('stagign')}Did you mean staging?\n` });
    expect(() => statSync(join(folder, '.secrets.json'))).toThrow();
    expect(() => statSync(join(config, 'secrets'))).toThrow();
  });

  it('setup with a token limited to environments checks its own environment, and refuses another', async () => {
    const { env, projectId, session } = await project();
    const limited = await createToken(service, session, {
      name: 'dev only',
      scopes: ['read:secrets'],
      projects: [{ projectId, environments: ['development'] }],
    });
    tokens.push(limited.rawToken);
    const asLimited = { ...env, SECRETS_TOKEN: limited.rawToken };
    const folder = join(work, `setup-${randomUUID()}`);
    mkdirSync(folder);
    const other = await secrets(['setup', '--project', projectId, '--env', 'staging'], asLimited, { cwd: folder });
    expect(exitOf(other)).toEqual({ code: 1, stderr: `error: ${ErrorText.tokenResource}\n` });
    expect(() => statSync(join(folder, '.secrets.json'))).toThrow();
    const own = await secrets(['setup', '--project', projectId, '--env', 'development'], asLimited, { cwd: folder });
    expect(exitOf(own)).toEqual({ code: 0, stderr: `Writing to project ${projectId} / development\n` });
    expect(JSON.parse(readFileSync(join(folder, '.secrets.json'), 'utf8'))).toEqual({
      project: projectId,
      environment: 'development',
    });
  });
});

describe('trusting .secrets.json', () => {
  /** A project, and a folder in its owner's home holding a `.secrets.json` written by hand, as anyone could. */
  const handWritten = async () => {
    const owner = await project();
    const folder = join(owner.home, 'acme');
    mkdirSync(join(folder, 'src'), { recursive: true });
    const file = join(folder, '.secrets.json');
    writeFileSync(file, JSON.stringify({ project: owner.projectId, environment: 'development' }));
    const noTarget: CliEnv = { ...owner.env, SECRETS_PROJECT: undefined, SECRETS_ENV: undefined };
    return { ...owner, folder, file, noTarget };
  };

  const refusal = (file: string, why: string) =>
    `error: Refusing ${file}: ${why}; review it, then run \`secrets trust\` in that folder.\n`;

  it('refuses a file it does not trust, in one sentence naming secrets trust, and writes nothing', async () => {
    const { noTarget, folder, file, projectId, session } = await handWritten();
    const dotenv = join(folder, '.env');
    writeFileSync(dotenv, `PASSWORD=${value('password')}\n`);
    const refused = await secrets(['import', dotenv], noTarget, { cwd: join(folder, 'src') });
    expect(exitOf(refused)).toEqual({ code: 2, stderr: refusal(file, 'it is not trusted') });
    expect(exitOf(await secrets(['list'], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: refusal(file, 'it is not trusted'),
    });
    const exported = await call(service, 'GET', secretsPath(projectId).replace(/secrets$/, 'export'), {
      token: session,
    });
    expect(exported.body.data).toEqual({});
  });

  it('follows a file once secrets trust has shown its path and target, with no token needed to trust', async () => {
    const { noTarget, env, folder, file, projectId, put } = await handWritten();
    await put('TRUSTED', value('trusted'));
    const offline = { ...noTarget, SECRETS_TOKEN: undefined, SECRETS_API_URL: undefined };
    const trusted = await secrets(['trust'], offline, { cwd: join(folder, 'src') });
    expect(trusted).toMatchObject({ code: 0, stderr: '' });
    expect(trusted.stdout).toBe(
      `${file} names project ${projectId}, environment development.\nTrusted: commands in ${folder} and below use it until it changes.\n`,
    );
    expect((await secrets(['list'], env, { cwd: join(folder, 'src') })).stdout).toContain('TRUSTED');
    expect((await secrets(['list'], noTarget, { cwd: join(folder, 'src') })).stdout).toContain('TRUSTED');
  });

  it('trusts the file a named folder uses: secrets trust FOLDER', async () => {
    const { noTarget, folder, file, projectId, home } = await handWritten();
    const trusted = await secrets(['trust', join(folder, 'src')], noTarget, { cwd: home });
    expect(trusted.stdout).toMatch(new RegExp(`^${file} names project ${projectId}, environment development\\.\\n`));
    expect((await secrets(['list'], noTarget, { cwd: folder })).code).toBe(0);
  });

  it('refuses a trusted file that changed since, until it is trusted again', async () => {
    const { noTarget, folder, file, projectId } = await handWritten();
    expect((await secrets(['trust'], noTarget, { cwd: folder })).code).toBe(0);
    writeFileSync(file, JSON.stringify({ project: projectId, environment: 'staging' }));
    expect(exitOf(await secrets(['list'], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: refusal(file, 'it changed since it was trusted'),
    });
    const again = await secrets(['trust'], noTarget, { cwd: folder });
    expect(again.stdout).toMatch(new RegExp(`^${file} names project ${projectId}, environment staging\\.\\n`));
    expect(await secrets(['list'], noTarget, { cwd: folder })).toMatchObject({
      code: 0,
      stdout: 'NAME  VERSION  UPDATED  BY\n',
    });
  });

  it('stops trusting a file with secrets trust --revoke', async () => {
    const { noTarget, folder, file } = await handWritten();
    expect((await secrets(['trust'], noTarget, { cwd: folder })).code).toBe(0);
    const revoked = await secrets(['trust', '--revoke'], noTarget, { cwd: folder });
    expect(revoked).toMatchObject({ code: 0, stdout: `No longer trusted: ${file}\n` });
    expect(exitOf(await secrets(['list'], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: refusal(file, 'it is not trusted'),
    });
    expect((await secrets(['trust', '--revoke'], noTarget, { cwd: folder })).stdout).toBe(`${file} was not trusted\n`);
  });

  it('needs no trust when -p/-e or SECRETS_PROJECT/SECRETS_ENV name both project and environment', async () => {
    const { env, noTarget, folder, file, projectId, put } = await handWritten();
    await put('NAMED', value('named'));
    const flagged = await secrets(['list', '-p', projectId, '-e', 'development'], noTarget, { cwd: folder });
    expect(flagged).toMatchObject({ code: 0, stderr: '' });
    expect(flagged.stdout).toContain('NAMED');
    const variables = await secrets(['list'], env, { cwd: folder });
    expect(variables).toMatchObject({ code: 0, stderr: '' });
    expect(variables.stdout).toContain('NAMED');
    // Only one named: the other comes from the file, which must then be trusted.
    expect(exitOf(await secrets(['list', '-p', projectId], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: refusal(file, 'it is not trusted'),
    });
  });

  it('refuses to trust a file that names no project or environment', async () => {
    const { noTarget, folder, file } = await handWritten();
    writeFileSync(file, JSON.stringify({ environment: 'development' }));
    expect(exitOf(await secrets(['trust'], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: `error: ${file} names no project: write it again with \`secrets setup\`\n`,
    });
    writeFileSync(file, 'not json');
    expect(exitOf(await secrets(['trust'], noTarget, { cwd: folder }))).toEqual({
      code: 2,
      stderr: `error: ${file} is not JSON: write it again with \`secrets setup\`\n`,
    });
  });
});

describe('secrets import', () => {
  it('writes every line of a .env file in one change', async () => {
    const { env, projectId, session } = await project();
    const one = value('one');
    const file = join(work, `good-${randomUUID()}.env`);
    writeFileSync(file, `# comment\nONE=${one}\nexport TWO="two\nlines"\n\nTHREE='$not #expanded'\n`);
    const result = await secrets(['import', file], env);
    expect(exitOf(result)).toEqual({ code: 0, stderr: writingTo(projectId) });
    const exported = await call(service, 'GET', secretsPath(projectId).replace(/secrets$/, 'export'), {
      token: session,
    });
    expect(exported.body.data).toEqual({ ONE: one, TWO: 'two\nlines', THREE: '$not #expanded' });
  });

  it('leaves everything unchanged when one line is invalid', async () => {
    const { env, projectId, session, put } = await project();
    const before = value('before');
    await put('ONE', before);
    const file = join(work, `bad-${randomUUID()}.env`);
    writeFileSync(file, `ONE=${value('after')}\nthis line is not an assignment\nTWO=${value('two')}\n`);
    const result = await secrets(['import', file], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: ${file}:2 is not NAME=value: nothing was imported\n`);
    const exported = await call(service, 'GET', secretsPath(projectId).replace(/secrets$/, 'export'), {
      token: session,
    });
    expect(exported.body.data).toEqual({ ONE: before });
  });

  it.each([
    ['a name that is no secret’s', 'ONE=1\nbad-name=1\n', `:2 sets "bad-name", not a secret name: ${SECRET_NAME_RULE}`],
    ['a name set twice', 'ONE=1\nTWO=2\n\nONE=3\n', ':4 sets ONE again (first on line 1)'],
    ['a line with no name', 'ONE=1\n=2\n', ':2 has no name before ='],
  ])('refuses %s, naming its line, and imports nothing', async (_case, content, problem) => {
    const { env, projectId, session } = await project();
    const file = join(work, `refused-${randomUUID()}.env`);
    writeFileSync(file, content);
    expect(exitOf(await secrets(['import', file], env))).toEqual({
      code: 1,
      stderr: `error: ${file}${problem}: nothing was imported\n`,
    });
    const exported = await call(service, 'GET', secretsPath(projectId).replace(/secrets$/, 'export'), {
      token: session,
    });
    expect(exported.body.data).toEqual({});
  });

  it('says why a file cannot be read', async () => {
    const { env } = await project();
    const missing = join(work, `nope-${randomUUID()}.env`);
    expect(exitOf(await secrets(['import', missing], env))).toEqual({
      code: 1,
      stderr: `error: cannot read ${missing}: no such file\n`,
    });
    expect(exitOf(await secrets(['import', work], env))).toEqual({
      code: 1,
      stderr: `error: cannot read ${work}: it is a folder\n`,
    });
  });
});

describe('secrets share and secrets reveal', () => {
  /** Someone signed in with a token of theirs that shares and reveals (no project needed: a share is a person's). */
  const person = async (label: string) => {
    const email = uniqueEmail(label);
    const session = await sessionFor(service, email);
    const token = (await createToken(service, session, { name: 'cli', scopes: ['read:secrets', 'write:secrets'] }))
      .rawToken;
    tokens.push(token);
    const env: CliEnv = { ...ownHome().env, SECRETS_API_URL: service.baseUrl, SECRETS_TOKEN: token };
    return { email, env };
  };

  /** A share's link as `secrets share` prints it: alone on its line, the key in the fragment. */
  const LINK = /^(?<dashboard>\S+)\/s\/(?<id>shr_[0-9A-Za-z]{22})#(?<key>[A-Za-z0-9_-]{43})\n$/;

  /** Shares `input` with `args`; answers the link and what share printed. */
  const share = async (env: CliEnv, input: string, args: readonly string[] = []) => {
    const result = await secrets(['share', ...args], env, { input });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(LINK) });
    return { link: result.stdout.trim(), ...result };
  };

  const recorders: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(recorders.splice(0).map((recorder) => recorder.stop()));
  });

  it.each([
    ['several lines and unicode, echo’s line break taken off', 'zwei — 🔑 密码\n  indented\r\nlast', '\n'],
    ['a value with a line break of its own (printf %s "$X")', 'ends with a break\n', '\n'],
    ['a value without a trailing line break', 'no break at the end', ''],
  ])('shares %s and reveals it exactly, once', async (_label, body, trailer) => {
    const sharer = await person('sharer');
    const reader = await person('reader');
    // The recorded prefix keeps the value out of every output but reveal's; the body ends it as the case says.
    const secret = `${value('shared')} ${body}`;
    const shared = await share(sharer.env, `${secret}${trailer}`);
    expect(shared.link.startsWith(`${service.baseUrl}/s/shr_`)).toBe(true);
    expect(shared.stderr).toMatch(/^shr_\S+: 1 view until \d{4}-\S+Z, for anyone signed in who has the link\n$/);

    const revealed = await secrets(['reveal', shared.link], reader.env);
    expect(revealed).toMatchObject({ code: 0, stdout: secret });
    expect(revealed.stderr).toBe(`shared by ${sharer.email}; that was the last view\n`);
    const again = await secrets(['reveal', shared.link], reader.env);
    expect({ ...exitOf(again), stdout: again.stdout }).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.shareNotFound}\n`,
      stdout: '',
    });
  });

  it('makes a link to SECRETS_DASHBOARD_URL, which reveals through the API all the same', async () => {
    const sharer = await person('sharer');
    const secret = value('dashboard');
    const shared = await share({ ...sharer.env, SECRETS_DASHBOARD_URL: 'https://secrets.example.com/app/' }, secret);
    expect(shared.link).toMatch(/^https:\/\/secrets\.example\.com\/app\/s\/shr_[0-9A-Za-z]{22}#[A-Za-z0-9_-]{43}$/);
    expect((await secrets(['reveal', shared.link], sharer.env)).stdout).toBe(secret);
  });

  it('makes a link to the dashboard the API’s document names when SECRETS_DASHBOARD_URL is not set', async () => {
    const sharer = await person('sharer');
    const elsewhere = await startService({ dashboardOrigin: 'https://dashboard.example.com' });
    try {
      const secret = value('named');
      const shared = await share({ ...sharer.env, SECRETS_API_URL: elsewhere.baseUrl }, secret);
      expect(shared.link).toMatch(/^https:\/\/dashboard\.example\.com\/s\/shr_[0-9A-Za-z]{22}#[A-Za-z0-9_-]{43}$/);
      expect((await secrets(['reveal', shared.link], sharer.env)).stdout).toBe(secret);
    } finally {
      await elsewhere.close();
    }
  });

  it('reveals a share of --views 2 twice, saying the views left, then answers Share not found', async () => {
    const sharer = await person('sharer');
    const secret = value('twice');
    const shared = await share(sharer.env, `${secret}\n`, ['--views', '2', '--expires-in-hours', '2']);
    const expiresAt = /until (\S+),/.exec(shared.stderr)?.[1];
    expect(shared.stderr).toMatch(/: 2 views until /);
    const hours = (Date.parse(expiresAt ?? '') - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2.01);

    const first = await secrets(['reveal', shared.link], sharer.env);
    expect(first).toMatchObject({
      code: 0,
      stdout: secret,
      stderr: `shared by ${sharer.email}; 1 view left until ${expiresAt}\n`,
    });
    const second = await secrets(['reveal', shared.link], sharer.env);
    expect(second).toMatchObject({
      code: 0,
      stdout: secret,
      stderr: `shared by ${sharer.email}; that was the last view\n`,
    });
    expect(exitOf(await secrets(['reveal', shared.link], sharer.env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.shareNotFound}\n`,
    });
  });

  it('reads the link from standard input with reveal -, so its key stays out of ps and shell history', async () => {
    const sharer = await person('sharer');
    const secret = value('from-stdin');
    const shared = await share(sharer.env, secret);
    const revealed = await secrets(['reveal', '-'], sharer.env, { input: `${shared.link}\n` });
    expect({ code: revealed.code, stdout: revealed.stdout }).toEqual({ code: 0, stdout: secret });
    const empty = await secrets(['reveal', '-'], sharer.env, { input: '' });
    expect(exitOf(empty)).toEqual({ code: 2, stderr: 'error: that is not a share link (<dashboard>/s/shr_…#key)\n' });
  });

  it('lets only a --recipient reveal it: another person’s token gets Share not found and spends nothing', async () => {
    const sharer = await person('sharer');
    const recipient = await person('recipient');
    const outsider = await person('outsider');
    const secret = value('for-one');
    const shared = await share(sharer.env, secret, ['--recipient', recipient.email.toUpperCase()]);
    expect(shared.stderr).toMatch(new RegExp(`: 1 view until \\S+, for ${recipient.email}\n$`));

    expect(exitOf(await secrets(['reveal', shared.link], outsider.env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.shareNotFound}\n`,
    });
    expect(exitOf(await secrets(['reveal', shared.link], sharer.env))).toEqual({
      code: 1,
      stderr: `error: ${ErrorText.shareNotFound}\n`,
    });
    expect((await secrets(['reveal', shared.link], recipient.env)).stdout).toBe(secret);
  });

  it('refuses a link without its key, or with its key cut short, before calling the API: no view is spent', async () => {
    const sharer = await person('sharer');
    const secret = value('whole-link');
    const { link } = await share(sharer.env, secret);
    const recorder = await startRecorder(service.port);
    recorders.push(recorder);
    const viaRecorder = { ...sharer.env, SECRETS_API_URL: recorder.url };

    for (const cut of [link.split('#')[0] ?? '', `${link.split('#')[0]}#`]) {
      expect(exitOf(await secrets(['reveal', cut], viaRecorder))).toEqual({
        code: 2,
        stderr: 'error: the link has no key (the part after #): copy the whole link; no view was spent\n',
      });
    }
    const short = await secrets(['reveal', link.slice(0, -5)], viaRecorder);
    expect(exitOf(short)).toEqual({
      code: 1,
      stderr: 'error: The link’s key is not a share key: copy the whole link (no view was spent)\n',
    });
    expect(exitOf(await secrets(['reveal', 'shr_0123456789abcdefABCDEF'], viaRecorder))).toEqual({
      code: 2,
      stderr: 'error: that is not a share link (<dashboard>/s/shr_…#key)\n',
    });
    expect(recorder.requests).toEqual([]);

    expect((await secrets(['reveal', link], viaRecorder)).stdout).toBe(secret);
  });

  it('says plainly that a key which does not open the share does not, and that the view was spent', async () => {
    const sharer = await person('sharer');
    const secret = value('wrong-key');
    const { link } = await share(sharer.env, secret, ['--views', '2']);
    const other = LINK.exec(`${(await share(sharer.env, value('other'))).link}\n`)?.groups?.key ?? '';
    const wrong = `${link.split('#')[0]}#${other}`;
    const result = await secrets(['reveal', wrong], sharer.env);
    expect({ ...exitOf(result), stdout: result.stdout }).toEqual({
      code: 1,
      stderr:
        'error: The link’s key does not open this share: copy the whole link (this reveal spent a view: 1 left)\n',
      stdout: '',
    });
    expect((await secrets(['reveal', link], sharer.env)).stdout).toBe(secret);
  });

  it('sends the service the ciphertext only: neither the value nor the link’s key', async () => {
    const sharer = await person('sharer');
    const recorder = await startRecorder(service.port);
    recorders.push(recorder);
    const viaRecorder = { ...sharer.env, SECRETS_API_URL: recorder.url, SECRETS_DASHBOARD_URL: service.baseUrl };
    const secret = value('never-sent');
    const { link } = await share(viaRecorder, secret);
    const key = LINK.exec(`${link}\n`)?.groups?.key ?? '';
    expect((await secrets(['reveal', link], viaRecorder)).stdout).toBe(secret);

    expect(recorder.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/v1/shares',
      expect.stringMatching(/^POST \/api\/v1\/shares\/shr_[0-9A-Za-z]{22}\/reveal$/),
    ]);
    const sent = JSON.parse(recorder.requests[0]?.body ?? '{}');
    expect(Object.keys(sent)).toEqual(['ciphertext']);
    expect(Buffer.from(sent.ciphertext, 'base64url').length).toBe(12 + Buffer.byteLength(secret) + 16);
    for (const request of recorder.requests) {
      const everything = JSON.stringify(request);
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(Buffer.from(secret).toString('base64url'));
    }
  });

  it('refuses, before sending anything, an empty value, one over 65,536 bytes and flags out of range', async () => {
    const sharer = await person('sharer');
    const recorder = await startRecorder(service.port);
    recorders.push(recorder);
    const viaRecorder = { ...sharer.env, SECRETS_API_URL: recorder.url };
    expect(exitOf(await secrets(['share'], viaRecorder, { input: '\n' }))).toEqual({
      code: 1,
      stderr: 'error: the value is empty: give it on standard input\n',
    });
    expect(exitOf(await secrets(['share'], viaRecorder, { input: 'x'.repeat(65_537) }))).toEqual({
      code: 1,
      stderr: 'error: the value is 65537 bytes; a share holds at most 65536 (UTF-8): nothing was sent\n',
    });
    for (const args of [
      ['--views', '0'],
      ['--views', '101'],
      ['--expires-in-hours', '721'],
      ['--recipient', 'not an address'],
    ]) {
      expect((await secrets(['share', ...args], viaRecorder, { input: 'x' })).code).toBe(2);
    }
    expect(recorder.requests).toEqual([]);
    // The largest value a secret may hold is shared whole.
    const largest = await share(viaRecorder, `${'y'.repeat(65_536)}\n`);
    expect((await secrets(['reveal', largest.link], sharer.env)).stdout).toBe('y'.repeat(65_536));
  });
});

describe('exit codes and messages', () => {
  it('exits 1 with the API’s text and what it means for a token used from another address', async () => {
    const session = await sessionFor(service, uniqueEmail('cli'));
    const projectId = await createProject(service, session);
    const elsewhere = await createToken(service, session, { name: 'elsewhere', scopes: ['read:secrets'] }, '127.0.0.2');
    tokens.push(elsewhere.rawToken);
    const result = await secrets(['list'], {
      SECRETS_API_URL: service.baseUrl,
      SECRETS_TOKEN: elsewhere.rawToken,
      SECRETS_PROJECT: projectId,
      SECRETS_ENV: 'development',
    });
    expect(result.code).toBe(1);
    const [first, second, rest] = result.stderr.split('\n');
    expect(first).toBe(`error: ${ErrorText.wrongIp}`);
    expect(second).toMatch(/works only from the addresses its entry in the token list shows/);
    expect(rest).toBe('');
  });

  it('exits 2 without SECRETS_TOKEN, and takes no token as a flag', async () => {
    const { env } = await project();
    const missing = await secrets(['export'], { ...env, SECRETS_TOKEN: undefined });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: SECRETS_TOKEN is not set/);
    const flag = await secrets(['export', '--token', 'svc_live_x'], { ...env, SECRETS_TOKEN: undefined });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("error: unknown option '--token'");
  });

  it('exits 2 for an unknown command, a missing project or a missing environment', async () => {
    const { env, home } = await project();
    expect((await secrets(['fetch'], env)).code).toBe(2);
    const noProject = await secrets(['list'], { ...env, SECRETS_PROJECT: undefined }, { cwd: home });
    expect(exitOf(noProject)).toEqual({ code: 2, stderr: expect.stringMatching(/^error: no project/) });
    const noEnv = await secrets(['list'], { ...env, SECRETS_ENV: undefined }, { cwd: home });
    expect(exitOf(noEnv)).toEqual({ code: 2, stderr: expect.stringMatching(/^error: no environment/) });
  });

  it.each([
    [[]],
    [['run']],
    [['export']],
    [['get']],
    [['list']],
    [['set']],
    [['delete']],
    [['import']],
    [['history']],
    [['restore']],
    [['environments']],
    [['setup']],
    [['trust']],
    [['share']],
    [['reveal']],
  ])('prints help for %p --help and exits 0', async (command) => {
    const result = await secrets([...command, '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: secrets ${command.join(' ')}`));
  });

  it('ends quietly with 0 when its reader closes the pipe first (`secrets --help | head -1`)', async () => {
    const child = spawnCli(cliFile, ['--help'], {});
    const output = collect(child);
    const exited = once(child, 'close');
    child.stdout?.destroy();
    child.stdin?.end();
    const [code] = (await exited) as [number | null];
    expect({ code, stderr: output().stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('prints its version', async () => {
    const result = await secrets(['--version'], {});
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: `${cliVersion}\n` });
  });
});
