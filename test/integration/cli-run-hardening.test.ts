import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, collect, runCli, spawnCli } from './cli';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The built `secrets run` against what could turn it on its user: signals (a SIGUSR1 that would open
 * Node's inspector, with SECRETS_TOKEN in memory), commands that cannot start, and values whose names
 * change how the child loads programs.
 */

let service: LocalService;
let cliFile: string;
let work: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  work = mkdtempSync(join(tmpdir(), 'cli-run-hardening-'));
});
afterAll(async () => {
  await service.close();
  for (const folder of [work, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

/** An owner's project whose development environment holds `values`, and the environment to run `secrets` in. */
const project = async (values: Readonly<Record<string, string>> = {}) => {
  const session = await sessionFor(service, uniqueEmail('cli-run'));
  const projectId = await createProject(service, session, 'Hardening');
  const token = (await createToken(service, session, { name: 'ci', scopes: ['read:secrets', 'write:secrets'] }))
    .rawToken;
  for (const [name, value] of Object.entries(values)) {
    const reply = await call(service, 'PUT', `/api/v1/projects/${projectId}/environments/development/secrets/${name}`, {
      token: session,
      json: { value },
    });
    expect([200, 201]).toContain(reply.status);
  }
  const env: CliEnv = {
    HOME: work,
    SECRETS_API_URL: service.baseUrl,
    SECRETS_TOKEN: token,
    SECRETS_PROJECT: projectId,
    SECRETS_ENV: 'development',
  };
  return { env, projectId, token };
};

/** Waits, with a generous limit, until `check` holds; a busy machine may be slow, never wrong. */
const until = async (check: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 30_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** A loopback port nothing listens on now. */
const freePort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
};

/** Whether something accepts a connection on 127.0.0.1:`port`. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Ends a process a failed test left behind; one already gone is fine. */
const killIfRunning = (pid: number) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone: what a passing test leaves.
  }
};

const FORWARDED = ['SIGUSR1', 'SIGUSR2', 'SIGWINCH', 'SIGHUP', 'SIGQUIT', 'SIGINT', 'SIGTERM'] as const;

describe('secrets run and signals', () => {
  it('passes SIGUSR1, SIGUSR2, SIGWINCH, SIGHUP, SIGQUIT, SIGINT and SIGTERM to the command, and SIGUSR1 opens no inspector', async () => {
    const { env } = await project({ A: 'a' });
    const log = join(work, `signals-${randomUUID()}`);
    writeFileSync(log, '');
    // The command writes down each signal it gets; SIGTERM ends it.
    const script = `const fs = require('fs');
      for (const signal of ${JSON.stringify(FORWARDED)}) process.on(signal, () => {
        fs.appendFileSync(${JSON.stringify(log)}, signal + '\\n');
        if (signal === 'SIGTERM') process.exit(0);
      });
      process.stdout.write('ready ' + process.pid + '\\n');
      setInterval(() => {}, 1000);`;
    // Where the wrapper's inspector would listen if a SIGUSR1 opened it (Node's default is 9229, which
    // another program on the machine may hold): a port known to be free.
    const port = await freePort();
    const wrapper = spawnCli(cliFile, ['run', '--', process.execPath, '-e', script], {
      ...env,
      NODE_OPTIONS: `--inspect-port=127.0.0.1:${port}`,
    });
    const output = collect(wrapper);
    const exited = once(wrapper, 'exit');
    wrapper.stdin?.end();
    try {
      await until(() => /ready \d+/.test(output().stdout), 'the command to start');
      const received = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
      for (const [index, signal] of FORWARDED.entries()) {
        wrapper.kill(signal);
        await until(() => received().length > index, `the command to get ${signal}`);
        if (signal === 'SIGUSR1') {
          expect(await listening(port)).toBe(false);
          expect(output().stderr).not.toContain('Debugger listening');
        }
      }
      expect(received()).toEqual([...FORWARDED]);
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(output().stderr).toBe('');
    } finally {
      // Neither may outlive a failure: a command left running would keep the run from ending.
      wrapper.kill('SIGKILL');
      const command = Number(/ready (\d+)/.exec(output().stdout)?.[1]);
      if (command > 0) killIfRunning(command);
    }
  });

  it('exits 127 for a command that does not exist, and 126 for one that is not executable', async () => {
    const { env } = await project({ A: 'a' });
    const missing = await runCli(cliFile, ['run', '--', join(work, 'no-such-command')], env);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 127,
      stderr: `error: cannot start ${join(work, 'no-such-command')}: not found\n`,
    });
    const inPath = await runCli(cliFile, ['run', '--', `no-such-command-${randomUUID()}`], env);
    expect(inPath.code).toBe(127);
    const plain = join(work, `not-executable-${randomUUID()}`);
    writeFileSync(plain, '#!/bin/sh\necho ran\n');
    chmodSync(plain, 0o644);
    const refused = await runCli(cliFile, ['run', '--', plain], env);
    expect({ code: refused.code, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      code: 126,
      stdout: '',
      stderr: `error: cannot start ${plain}: permission denied\n`,
    });
    expect(existsSync(plain)).toBe(true);
  });
});

/** A node one-liner printing the named variables as JSON (null where unset). */
const printEnv = (...names: string[]) => [
  '--',
  process.execPath,
  '-e',
  `process.stdout.write(JSON.stringify({${names.map((name) => `${name}: process.env.${name} ?? null`).join(',')}}))`,
];

describe('secrets run and names that change how programs load', () => {
  it('injects none of them unless --allow-name names it, and names each one it skips, never its value', async () => {
    const values = {
      PATH: `/nonexistent-${randomUUID()}`,
      NODE_OPTIONS: `--max-old-space-size=${1000 + Math.floor(Math.random() * 1000)}`,
      LD_LIBRARY_PATH: `/nonexistent-${randomUUID()}`,
      BASH_ENV: `/nonexistent-${randomUUID()}`,
      GIT_CONFIG_COUNT: '1',
      PLAIN: `plain-${randomUUID()}`,
    };
    const { env } = await project(values);
    const names = Object.keys(values);
    const result = await runCli(cliFile, ['run', ...printEnv(...names)], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      PATH: process.env.PATH,
      NODE_OPTIONS: null,
      LD_LIBRARY_PATH: null,
      BASH_ENV: null,
      GIT_CONFIG_COUNT: null,
      PLAIN: values.PLAIN,
    });
    expect(result.stderr.split('\n').filter(Boolean)).toEqual(
      ['BASH_ENV', 'GIT_CONFIG_COUNT', 'LD_LIBRARY_PATH', 'NODE_OPTIONS', 'PATH'].map(
        (name) => `secrets: ${name} not injected: it changes how programs load (--allow-name ${name} injects it)`,
      ),
    );
    const allowed = await runCli(
      cliFile,
      ['run', '--allow-name', 'BASH_ENV', '--allow-name', 'GIT_CONFIG_COUNT', ...printEnv(...names)],
      env,
    );
    expect(JSON.parse(allowed.stdout)).toMatchObject({
      BASH_ENV: values.BASH_ENV,
      GIT_CONFIG_COUNT: '1',
      PATH: process.env.PATH,
    });
    expect(allowed.stderr).not.toContain('BASH_ENV');
    for (const value of Object.values(values)) {
      expect(result.stderr).not.toContain(value);
      expect(allowed.stderr).not.toContain(value);
    }
  });
});

/** A loopback HTTP server answering every request with `answer`; counts what it was sent. */
const fakeServer = async (answer: (request: IncomingMessage, response: ServerResponse) => void) => {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    answer(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, requests };
};
const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(async (server) => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    }),
  );
});

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
};

describe('secrets and a hostile or impersonated server', () => {
  const target: CliEnv = {
    HOME: tmpdir(),
    SECRETS_TOKEN: 'svc_live_hostile_test_token',
    SECRETS_PROJECT: 'prj_0123456789abcdef',
    SECRETS_ENV: 'development',
  };

  it('refuses names that are no secret names (A=B, a line break) before running or writing anything', async () => {
    const hostile = await fakeServer((_request, response) =>
      json(response, 200, { data: { OK: 'fine', 'A=B': 'x', 'PATH\nX': 'y' } }),
    );
    const mark = join(work, `started-${randomUUID()}`);
    const env = { ...target, SECRETS_API_URL: hostile.url };
    const run = await runCli(
      cliFile,
      ['run', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(mark)}, '')`],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: the service answered a name that is no secret's name, "A=B"/);
    expect(existsSync(mark)).toBe(false);
    const exported = await runCli(cliFile, ['export'], env);
    expect({ code: exported.code, stdout: exported.stdout }).toEqual({ code: 1, stdout: '' });
  });

  it('follows no redirect: a 3xx is an error, and its target is sent nothing', async () => {
    const elsewhere = await fakeServer((_request, response) => json(response, 200, { data: [] }));
    const redirecting = await fakeServer((request, response) => {
      response.writeHead(307, { Location: `${elsewhere.url}${request.url}` });
      response.end();
    });
    const result = await runCli(cliFile, ['list'], { ...target, SECRETS_API_URL: redirecting.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: The service answered 307, a redirect to ${elsewhere.url}, which is not followed\n`,
    );
    expect(redirecting.requests).toHaveLength(1);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses an http API URL that is not on a loopback address, before sending anything', async () => {
    for (const url of ['http://example.com', 'http://127.0.0.1.example.com:3000', 'ftp://127.0.0.1/']) {
      const result = await runCli(cliFile, ['list'], { ...target, SECRETS_API_URL: url });
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: 'error: SECRETS_API_URL must be https, or http on a loopback address (127.0.0.0/8, ::1, localhost)\n',
      });
    }
  });
});
