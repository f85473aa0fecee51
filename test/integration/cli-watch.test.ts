import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, collect, runCli, spawnCli, startRecorder, startRelay } from './cli';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The built `secrets run --watch` and `--mount` against the local service: a changed environment
 * restarts or signals the command, an unchanged one does neither, and the mount file is the run's alone.
 */

let service: LocalService;
let cliFile: string;
let work: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  work = mkdtempSync(join(tmpdir(), 'cli-watch-'));
});
afterAll(async () => {
  await service.close();
  for (const folder of [work, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

/** An owner's project whose development environment holds `A`, a way to change it, and `secrets`' environment. */
const project = async (value: string) => {
  const session = await sessionFor(service, uniqueEmail('cli-watch'));
  const projectId = await createProject(service, session, 'Watch');
  const token = (await createToken(service, session, { name: 'ci', scopes: ['read:secrets'] })).rawToken;
  const setA = async (next: string) => {
    const reply = await call(service, 'PUT', `/api/v1/projects/${projectId}/environments/development/secrets/A`, {
      token: session,
      json: { value: next },
    });
    expect([200, 201]).toContain(reply.status);
  };
  await setA(value);
  const env: CliEnv = {
    HOME: work,
    SECRETS_API_URL: service.baseUrl,
    SECRETS_TOKEN: token,
    SECRETS_PROJECT: projectId,
    SECRETS_ENV: 'development',
  };
  return { env, setA };
};

/** A watch test waits for a start and a change, each up to `until`'s limit, on a busy machine. */
const WATCH_TEST_MS = 180_000;

/** Waits, with a generous limit, until `check` holds; a busy machine may be slow, never wrong. */
const until = async (check: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !check(); waited += 100) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/**
 * A node command that writes one JSON line to `log` when it starts (its pid, A, and the mount file's
 * text) and one on SIGHUP (the mount file's text then); SIGTERM ends it with 0.
 */
const recorder = (log: string) => [
  '--',
  process.execPath,
  '-e',
  `const fs = require('fs');
   const mount = () => process.env.SECRETS_MOUNT_PATH ? fs.readFileSync(process.env.SECRETS_MOUNT_PATH, 'utf8') : null;
   const write = (event) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event, pid: process.pid, A: process.env.A ?? null, mount: mount() }) + '\\n');
   process.on('SIGHUP', () => write('hup'));
   process.on('SIGTERM', () => process.exit(0));
   write('start');
   setInterval(() => {}, 1000);`,
];

/**
 * As `recorder`, but SIGTERM only writes a `term` line: the command outlives a restart's SIGTERM until
 * the grace ends, or another signal ends it (SIGINT, whose default ends it).
 */
const stubborn = (log: string) => [
  '--',
  process.execPath,
  '-e',
  `const fs = require('fs');
   const write = (event) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event, pid: process.pid, A: process.env.A ?? null, mount: null }) + '\\n');
   process.on('SIGTERM', () => write('term'));
   write('start');
   setInterval(() => {}, 1000);`,
];

interface Line {
  readonly event: 'start' | 'hup' | 'term';
  readonly pid: number;
  readonly A: string | null;
  readonly mount: string | null;
}

const lines = (log: string): Line[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Line)
    : [];

/** Starts `secrets run` in the background; answers how to read its output, its exit, and its commands' pids. */
const background = (args: readonly string[], env: CliEnv, log: string) => {
  const wrapper = spawnCli(cliFile, args, env);
  const output = collect(wrapper);
  const exited = once(wrapper, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  wrapper.stdin?.end();
  const cleanUp = () => {
    wrapper.kill('SIGKILL');
    for (const { pid } of lines(log)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone: what a passing test leaves.
      }
    }
  };
  return { wrapper, output, exited, cleanUp };
};

describe('secrets run --watch', () => {
  it(
    'restarts the command with the new value when a secret changes',
    async () => {
      const { env, setA } = await project('old');
      const log = join(work, `restart-${randomUUID()}`);
      const run = background(['run', '--watch', '--watch-interval', '5s', ...recorder(log)], env, log);
      try {
        await until(() => lines(log).length === 1, 'the command to start');
        await setA('new');
        await until(() => lines(log).some((line) => line.A === 'new'), 'the command to start again with the new value');
        const [first, second] = lines(log);
        expect(first).toMatchObject({ event: 'start', A: 'old' });
        expect(second).toMatchObject({ event: 'start', A: 'new' });
        expect(second?.pid).not.toBe(first?.pid);
        run.wrapper.kill('SIGTERM');
        const [code] = await run.exited;
        expect(code).toBe(0);
        expect(run.output().stderr).toBe('');
      } finally {
        run.cleanUp();
      }
    },
    WATCH_TEST_MS,
  );

  it(
    'with --watch-signal SIGHUP signals the command instead, after updating the mount file',
    async () => {
      const { env, setA } = await project('old');
      const log = join(work, `signal-${randomUUID()}`);
      const mountPath = join(work, `signal-${randomUUID()}.json`);
      const args = ['run', '--watch', '--watch-interval', '5s', '--watch-signal', 'SIGHUP', '--mount', mountPath];
      const run = background([...args, ...recorder(log)], env, log);
      try {
        await until(() => lines(log).length === 1, 'the command to start');
        expect(JSON.parse(lines(log)[0]?.mount ?? '')).toEqual({ A: 'old' });
        await setA('new');
        await until(() => lines(log).some((line) => line.event === 'hup'), 'the command to get SIGHUP');
        const [start, hup, ...more] = lines(log);
        expect(more).toEqual([]);
        expect(hup?.pid).toBe(start?.pid);
        expect(JSON.parse(hup?.mount ?? '')).toEqual({ A: 'new' });
        run.wrapper.kill('SIGTERM');
        await run.exited;
        expect(existsSync(mountPath)).toBe(false);
      } finally {
        run.cleanUp();
      }
    },
    WATCH_TEST_MS,
  );

  it(
    'neither restarts nor signals the command while the environment is unchanged, asking with its ETag',
    async () => {
      const { env } = await project('same');
      const recorded = await startRecorder(service.port);
      const log = join(work, `unchanged-${randomUUID()}`);
      const run = background(
        ['run', '--watch', '--watch-interval', '5s', ...recorder(log)],
        { ...env, SECRETS_API_URL: recorded.url },
        log,
      );
      const checks = () =>
        recorded.requests.filter((request) => request.url.endsWith('/export') && request.headers['if-none-match']);
      try {
        await until(() => checks().length >= 3, 'three checks');
        expect(lines(log)).toHaveLength(1);
        run.wrapper.kill('SIGTERM');
        await run.exited;
        expect(lines(log)).toHaveLength(1);
        expect(run.output().stderr).toBe('');
      } finally {
        run.cleanUp();
        await recorded.stop();
      }
    },
    WATCH_TEST_MS,
  );

  it(
    'keeps the command running when a check fails, and says so in one line without the token',
    async () => {
      const { env } = await project('kept');
      const relay = await startRelay(service.port);
      const log = join(work, `failed-${randomUUID()}`);
      const run = background(
        ['run', '--watch', '--watch-interval', '5s', ...recorder(log)],
        { ...env, SECRETS_API_URL: relay.url },
        log,
      );
      try {
        await until(() => lines(log).length === 1, 'the command to start');
        await relay.stop();
        await until(() => run.output().stderr.includes('could not check for changes'), 'a failed check');
        const [line, ...rest] = run.output().stderr.split('\n');
        expect(line).toMatch(/^secrets: could not check for changes \(.+\); the command keeps running$/);
        expect(rest.every((more) => more === '' || more === line)).toBe(true);
        expect(run.output().stderr).not.toContain(String(env.SECRETS_TOKEN));
        expect(lines(log)).toHaveLength(1);
        run.wrapper.kill('SIGTERM');
        const [code] = await run.exited;
        expect(code).toBe(0);
      } finally {
        run.cleanUp();
        await relay.stop();
      }
    },
    WATCH_TEST_MS,
  );

  it(
    'ends with the command a restart was stopping when SIGINT asks it to, starting no other',
    async () => {
      const { env, setA } = await project('old');
      const log = join(work, `ended-${randomUUID()}`);
      const run = background(
        ['run', '--watch', '--watch-interval', '5s', '--watch-grace', '60s', ...stubborn(log)],
        env,
        log,
      );
      try {
        await until(() => lines(log).length === 1, 'the command to start');
        await setA('new');
        await until(() => lines(log).some((line) => line.event === 'term'), 'the restart to ask the command to stop');
        run.wrapper.kill('SIGINT');
        // Waited for well within the grace: ended by SIGINT (128 + 2), with no second command.
        const ended = await Promise.race([
          run.exited,
          new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 45_000)),
        ]);
        expect(ended).toEqual([130, null]);
        expect(lines(log).map((line) => line.event)).toEqual(['start', 'term']);
      } finally {
        run.cleanUp();
      }
    },
    WATCH_TEST_MS,
  );

  it('refuses an interval under 5s as a usage error, starting nothing', async () => {
    const { env } = await project('a');
    const log = join(work, `short-${randomUUID()}`);
    const result = await runCli(cliFile, ['run', '--watch', '--watch-interval', '4s', ...recorder(log)], env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: --watch-interval is at least 5s, not 4s\n',
    });
    expect(lines(log)).toEqual([]);
  });

  it('refuses --watch-signal without --mount, which alone could bring a running command new values', async () => {
    const { env } = await project('a');
    const log = join(work, `signal-${randomUUID()}`);
    const result = await runCli(cliFile, ['run', '--watch', '--watch-signal', 'SIGHUP', ...recorder(log)], env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: --watch-signal needs --mount: a signal cannot change the command’s environment\n',
    });
    expect(lines(log)).toEqual([]);
  });
});

/** A node one-liner printing, as JSON, what the command sees of the mount file and of A. */
const inspectMount = [
  '--',
  process.execPath,
  '-e',
  `const fs = require('fs');
   const path = process.env.SECRETS_MOUNT_PATH;
   process.stdout.write(JSON.stringify({ path, A: process.env.A ?? null, mode: fs.lstatSync(path).mode & 0o777, text: fs.readFileSync(path, 'utf8') }));`,
];

describe('secrets run --mount', () => {
  it('writes the secrets to a new 0600 file named by SECRETS_MOUNT_PATH, injects none, and removes it at the end', async () => {
    const { env } = await project('mounted value');
    const mountPath = join(work, `mount-${randomUUID()}.env`);
    const result = await runCli(cliFile, ['run', '--mount', mountPath, ...inspectMount], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      path: mountPath,
      A: null,
      mode: 0o600,
      text: "A='mounted value'\n",
    });
    expect(existsSync(mountPath)).toBe(false);
    const injected = await runCli(cliFile, ['run', '--mount', mountPath, '--inject', ...inspectMount], env);
    expect(JSON.parse(injected.stdout)).toMatchObject({ A: 'mounted value' });
    expect(existsSync(mountPath)).toBe(false);
  });

  it('refuses a link already at the mount path, writing nothing through it and starting nothing', async () => {
    const { env } = await project('secret-value');
    const target = join(work, `target-${randomUUID()}`);
    writeFileSync(target, 'untouched');
    const mountPath = join(work, `planted-${randomUUID()}.env`);
    symlinkSync(target, mountPath);
    const result = await runCli(cliFile, ['run', '--mount', mountPath, ...inspectMount], env);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot create the mount file ${mountPath}: something is already there\n`,
    });
    expect(readFileSync(target, 'utf8')).toBe('untouched');
  });
});
