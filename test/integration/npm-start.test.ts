import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ErrorText } from '@contract/errors';
import { LOCK_FILE } from '../../local/data-dir';
import { freePort } from '../../local/dynamodb-local';
import { startCountingProxy } from '../../measure/dynamo-proxy';
import { until } from '../../measure/until';
import { call, devSession, uniqueEmail } from './harness';
import { type ChildEnv, type NpmService, type RunAs, runScript, spawnScript, startNpmService } from './npm-start';

/**
 * `npm start` as a developer runs it, in a child process: what it refuses to start with, where it
 * listens, what it answers while it starts, and what its printed commands do.
 */

const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const TEST_MS = 180_000;

/**
 * A `java` first on PATH that only leaves a mark: a start that gets as far as probing Java is seen,
 * and none ever runs the real DynamoDB Local.
 */
let javaDir: string;
let javaMark: string;
beforeAll(() => {
  javaDir = mkdtempSync(join(tmpdir(), 'fake-java-'));
  javaMark = join(javaDir, 'java-was-run');
  const script = join(javaDir, 'java');
  writeFileSync(script, `#!/bin/sh\ntouch '${javaMark}'\nexit 1\n`);
  chmodSync(script, 0o755);
});
afterAll(() => rmSync(javaDir, { recursive: true, force: true }));

/** `npm start` with its own DynamoDB Local (no DYNAMODB_ENDPOINT) and the marking `java`, run to its end. */
const startWithoutDatabase = (env: ChildEnv, timeoutMs?: number, runAs?: RunAs) =>
  runScript(
    'start',
    [],
    { DYNAMODB_ENDPOINT: undefined, PATH: `${javaDir}${delimiter}${process.env.PATH ?? ''}`, ...env },
    timeoutMs,
    runAs,
  );

const listenOn = async (port: number, host: string): Promise<Server> => {
  const server = createServer();
  server.listen(port, host);
  await once(server, 'listening');
  return server;
};

const closeServer = async (server: Server) => {
  server.close();
  await once(server, 'close');
};

describe('npm start refuses a bad configuration before starting anything', () => {
  it.each(['abc', '70000', '-1', '1.5'])(
    'exits at once with one sentence naming PORT for PORT=%s',
    async (port) => {
      const run = await startWithoutDatabase({ PORT: port });
      expect(run.timedOut).toBe(false);
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toBe(`PORT must be a whole number from 0 to 65535, got "${port}".`);
      expect(existsSync(javaMark)).toBe(false);
    },
    TEST_MS,
  );

  it.each(['0', '-5', '1.5', 'many', '99999999999999999999'])(
    'exits at once with one sentence naming RATE_LIMIT_PER_MINUTE for RATE_LIMIT_PER_MINUTE=%s',
    async (limit) => {
      const run = await startWithoutDatabase({ RATE_LIMIT_PER_MINUTE: limit });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toBe(`RATE_LIMIT_PER_MINUTE must be a whole number of at least 1, got "${limit}".`);
      expect(existsSync(javaMark)).toBe(false);
    },
    TEST_MS,
  );

  it(
    'exits with one sentence naming HOST when it is neither an IP address nor localhost',
    async () => {
      const run = await startWithoutDatabase({ HOST: 'my-laptop.example' });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toMatch(/^HOST must be an IP address or localhost, got "my-laptop\.example"\.$/);
      expect(existsSync(javaMark)).toBe(false);
    },
    TEST_MS,
  );

  it(
    'exits with one sentence when only one of SESSION_ISSUER and SESSION_AUDIENCE is set',
    async () => {
      const run = await startWithoutDatabase({
        SESSION_ISSUER: 'https://idp.example.com',
        SESSION_AUDIENCE: undefined,
      });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toMatch(/^Set SESSION_ISSUER and SESSION_AUDIENCE together[^\n]*\.$/);
      expect(existsSync(javaMark)).toBe(false);
    },
    TEST_MS,
  );

  it(
    'exits with one sentence naming PORT when the port is busy, before DynamoDB Local starts',
    async () => {
      const port = await freePort();
      const squatter = await listenOn(port, '127.0.0.1');
      try {
        const run = await startWithoutDatabase({ PORT: String(port) });
        expect(run.code).not.toBe(0);
        expect(run.stderr.trim()).toBe(`Port ${port} is in use: stop what runs there or set PORT to another port.`);
        expect(existsSync(javaMark)).toBe(false);
      } finally {
        await closeServer(squatter);
      }
    },
    TEST_MS,
  );
});

/** One sentence naming `variable`: one line, no stack trace. */
const oneSentenceNaming = (variable: string) => new RegExp(`^[^\n]*\\b${variable}\\b[^\n]*\\.$`);

/**
 * A user whom a folder's mode binds: the test's own, or root without its override (root writes
 * anywhere), never another user, who could not even start tsx from a clone only root may enter.
 */
const asBoundUser = (): RunAs => (process.getuid?.() === 0 ? { withoutWriteOverride: true } : {});

describe('npm start refuses a DATA_DIR, TABLE_NAME or DYNAMODB_ENDPOINT it cannot use', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'npm-start-config-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** A refused start: it ended by itself, non-zero, with one sentence on stderr, before Java. */
  const expectRefused = (run: Awaited<ReturnType<typeof startWithoutDatabase>>, sentence: RegExp) => {
    expect(run.timedOut).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toMatch(sentence);
    expect(existsSync(javaMark)).toBe(false);
  };

  it(
    'exits with one sentence naming DATA_DIR when it is a file, or lies under one',
    async () => {
      const file = join(scratch, 'a-file');
      writeFileSync(file, 'not a folder');
      for (const dataDir of [file, join(file, 'data')]) {
        const run = await startWithoutDatabase({ DATA_DIR: dataDir });
        expectRefused(run, oneSentenceNaming('DATA_DIR'));
        expect(run.stderr).toContain(JSON.stringify(file));
      }
    },
    TEST_MS,
  );

  it(
    'exits with one sentence naming DATA_DIR under /proc, where no folder can be made, instead of spinning',
    async () => {
      const run = await startWithoutDatabase({ DATA_DIR: '/proc/no-such-data-dir' }, 60_000);
      expectRefused(run, oneSentenceNaming('DATA_DIR'));
    },
    TEST_MS,
  );

  it(
    'exits with one sentence naming DATA_DIR when the folder, or its parent, is not writable',
    async () => {
      const locked = join(scratch, 'read-only');
      mkdirSync(locked, { mode: 0o555 });
      chmodSync(locked, 0o555);
      for (const dataDir of [locked, join(locked, 'data')]) {
        const run = await startWithoutDatabase({ DATA_DIR: dataDir }, undefined, asBoundUser());
        expectRefused(run, oneSentenceNaming('DATA_DIR'));
        expect(run.stderr).toMatch(/permission denied/);
      }
    },
    TEST_MS,
  );

  it.each(['ab', 'my table', 'x'.repeat(256), 'tabelle-ü'])(
    'exits with one sentence naming TABLE_NAME for TABLE_NAME=%s',
    async (tableName) => {
      const run = await startWithoutDatabase({ TABLE_NAME: tableName });
      expectRefused(run, oneSentenceNaming('TABLE_NAME'));
      expect(run.stderr).toContain(JSON.stringify(tableName));
    },
    TEST_MS,
  );

  it(
    'exits with one sentence naming DYNAMODB_ENDPOINT when it is no URL or nothing answers there',
    async () => {
      const refused = `http://127.0.0.1:${await freePort()}`;
      for (const endpoint of ['localhost:8000', refused, 'http://no-such-host.invalid:8000']) {
        const run = await startWithoutDatabase({ DYNAMODB_ENDPOINT: endpoint });
        expectRefused(run, oneSentenceNaming('DYNAMODB_ENDPOINT'));
      }
    },
    TEST_MS,
  );
});

describe('two npm starts on one DATA_DIR', () => {
  let dataDir: string;
  let first: NpmService | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'npm-start-lock-'));
  });
  afterAll(async () => {
    await first?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'refuses the second with one sentence naming DATA_DIR and the first one’s process, before Java',
    async () => {
      first = await startNpmService({ DATA_DIR: dataDir });
      const second = await startWithoutDatabase({ DATA_DIR: dataDir });
      expectRefusedByLock(second);
      // The first one serves on, still holding the folder.
      expect((await call(first, 'GET', '/api/v1/openapi.json')).status).toBe(200);
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).toMatch(/^\d+$/);
    },
    TEST_MS,
  );

  it(
    'frees the folder when the first stops, and takes over the lock a process that has ended left',
    async () => {
      await first?.stop();
      first = undefined;
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
      const ended = spawn(process.execPath, ['-e', '']);
      await once(ended, 'exit');
      writeFileSync(join(dataDir, LOCK_FILE), `${ended.pid}\n`);
      first = await startNpmService({ DATA_DIR: dataDir });
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).not.toBe(String(ended.pid));
    },
    TEST_MS,
  );

  const expectRefusedByLock = (run: Awaited<ReturnType<typeof startWithoutDatabase>>) => {
    expect(run.timedOut).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toMatch(oneSentenceNaming('DATA_DIR'));
    expect(run.stderr).toMatch(/in use by another npm start \(process \d+\)/);
    expect(existsSync(javaMark)).toBe(false);
  };
});

describe('npm start while DynamoDB is not ready yet', () => {
  it(
    'already listens and answers 503 with Retry-After and the contract body',
    async () => {
      // A database that accepts connections and never answers: the start stalls at the table.
      const stalled = createServer(() => undefined);
      stalled.listen(0, '127.0.0.1');
      await once(stalled, 'listening');
      const { port: dbPort } = stalled.address() as { port: number };
      const port = await freePort();
      const starting = spawnScript('start', [], {
        PORT: String(port),
        DYNAMODB_ENDPOINT: `http://127.0.0.1:${dbPort}`,
        TABLE_NAME: 'never-created',
      });
      try {
        const deadline = Date.now() + 60_000;
        let reply: Awaited<ReturnType<typeof call>> | undefined;
        while (!reply && Date.now() < deadline) {
          reply = await call({ port }, 'GET', '/api/v1/projects').catch(async () => {
            await new Promise((resolve) => setTimeout(resolve, 200));
            return undefined;
          });
        }
        expect(reply?.status).toBe(503);
        expect(reply?.headers['retry-after']).toBe('1');
        expect(reply?.body).toEqual({ success: false, error: ErrorText.unavailable });
      } finally {
        await starting.stop();
        stalled.close();
      }
    },
    TEST_MS,
  );
});

describe('npm start beside a slow DynamoDB Local', () => {
  it(
    'waits for an answer that takes seconds, where a deployed function would give up after one',
    async () => {
      // Every Query reaches DynamoDB Local a second and a half late, as a JVM on a laptop that is also building.
      const proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
      const service = await startNpmService({ DYNAMODB_ENDPOINT: proxy.endpoint });
      try {
        const session = await devSession(service, uniqueEmail('slow'));
        proxy.rewrite('Query', () => new Promise((resolve) => setTimeout(resolve, 1_500)));
        const reply = await call(service, 'GET', '/api/v1/projects', { token: session });
        expect(proxy.operations).toContain('Query');
        expect(reply.status).toBe(200);
      } finally {
        await service.stop();
        await proxy.close();
      }
    },
    TEST_MS,
  );
});

describe('a running npm start', () => {
  let service: NpmService;
  beforeAll(async () => {
    service = await startNpmService();
  }, TEST_MS);
  afterAll(() => service?.stop());

  it(
    'answers on IPv4 and IPv6 loopback',
    async () => {
      expect((await call(service, 'GET', '/api/v1/openapi.json', { host: '127.0.0.1' })).status).toBe(200);
      expect((await call(service, 'GET', '/api/v1/openapi.json', { host: '::1' })).status).toBe(200);
    },
    TEST_MS,
  );

  it(
    'does not answer on the machine’s other addresses',
    async () => {
      const external = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && !address.internal && address.family === 'IPv4');
      if (!external) return;
      await expect(call(service, 'GET', '/api/v1/openapi.json', { host: external.address })).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    },
    TEST_MS,
  );

  it(
    'prints the session command with its own base URL, and that command prints a session',
    async () => {
      const command = `BASE_URL=${service.baseUrl} npm run session -- you@example.com`;
      expect(service.output().stdout).toContain(command);
      const run = await runScript('session', [uniqueEmail()], { BASE_URL: service.baseUrl, PORT: undefined });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toMatch(JWT);
    },
    TEST_MS,
  );

  it(
    'answers npm run session with what is no e-mail address in one line, exit code 2',
    async () => {
      const run = await runScript('session', ['alice'], { BASE_URL: service.baseUrl, PORT: undefined });
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: '"alice" is not an e-mail address: give one, e.g. npm run session -- you@example.com\n',
      });
    },
    TEST_MS,
  );

  it(
    'serves the development identity provider to a loopback Host',
    async () => {
      for (const host of [
        `localhost:${service.port}`,
        `127.0.0.1:${service.port}`,
        `[::1]:${service.port}`,
        'localhost',
      ]) {
        const reply = await call(service, 'POST', '/_dev/idp/token', {
          json: { email: uniqueEmail() },
          headers: [['Host', host]],
        });
        expect(reply.status).toBe(200);
        expect(reply.body.token).toMatch(JWT);
      }
    },
    TEST_MS,
  );

  it(
    'refuses the development identity provider to another Host (DNS rebinding)',
    async () => {
      for (const path of [
        '/_dev/idp/token',
        '/_dev/idp/.well-known/jwks.json',
        '/_dev/idp/.well-known/openid-configuration',
        '/_dev/idp/auth',
      ]) {
        const reply = await call(service, path.endsWith('token') ? 'POST' : 'GET', path, {
          json: { email: uniqueEmail() },
          headers: [['Host', 'evil.example:3000']],
        });
        expect(reply.status).toBe(403);
        expect(reply.body).toEqual({ success: false, error: expect.any(String) });
        expect(reply.body.token).toBeUndefined();
      }
    },
    TEST_MS,
  );

  it(
    'publishes an OpenID provider for the dashboard: code flow with PKCE only, signed with the sessions’ key',
    async () => {
      const issuer = `${service.baseUrl}/_dev/idp`;
      const discovery = await call(service, 'GET', '/_dev/idp/.well-known/openid-configuration');
      expect(discovery.status).toBe(200);
      expect(discovery.body).toMatchObject({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/oauth/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
      const redirect = encodeURIComponent(`${service.baseUrl}/`);
      const withoutPkce = await fetch(
        `${issuer}/auth?client_id=local-dashboard&response_type=code&scope=openid%20email&redirect_uri=${redirect}`,
        { redirect: 'manual' },
      );
      expect(withoutPkce.status).toBe(303);
      expect(new URL(withoutPkce.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
    },
    TEST_MS,
  );

  it(
    'answers a path full of `*` by its route, without holding up another request',
    async () => {
      const session = (await runScript('session', [uniqueEmail()], { BASE_URL: service.baseUrl })).stdout.trim();
      const path = `/api/v1/tokens/${'a*'.repeat(100)}`;
      const [starred, plain] = await Promise.all([
        call(service, 'DELETE', path, { token: session }),
        call(service, 'GET', '/api/v1/openapi.json'),
      ]);
      expect(starred.status).toBe(404);
      expect(starred.body).toEqual({ success: false, error: ErrorText.tokenNotFound });
      expect(plain.status).toBe(200);
    },
    TEST_MS,
  );
});

describe('the console of npm start', () => {
  const services: NpmService[] = [];
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  /** Starts npm start under `env`, sends a few requests and answers its output once every request's line is in. */
  const consoleOf = async (env: ChildEnv) => {
    const service = await startNpmService({ LOG_LEVEL: undefined, POWERTOOLS_LOG_LEVEL: undefined, ...env });
    services.push(service);
    const session = await devSession(service, uniqueEmail());
    const requests = [
      ['GET', '/api/v1/projects', 200],
      ['POST', '/api/v1/tokens', 201],
      ['POST', '/api/v1/tokens', 400],
      ['GET', '/api/v1/no-such-route', 404],
    ] as const;
    for (const [method, path, status] of requests) {
      const json = status === 400 ? { name: 'x', scopes: [] } : { name: 'x', scopes: ['admin'] };
      const reply = await call(service, method, path, { token: session, ...(method === 'POST' && { json }) });
      expect([method, path, reply.status]).toEqual([method, path, status]);
    }
    const lineOf = ([method, path, status]: (typeof requests)[number]) =>
      new RegExp(`^${method} ${path.replaceAll('/', '\\/')} ${status} \\d+ ms$`);
    const lines = () => service.output().stdout.split('\n');
    await until(
      () => (requests.every((request) => lines().some((line) => lineOf(request).test(line))) ? true : undefined),
      () => service.output(),
    );
    for (const request of requests) expect(lines().filter((line) => lineOf(request).test(line))).toHaveLength(1);
    // The token created is an audit event, printed as ever.
    await until(
      () => (lines().some((line) => line.startsWith('event: {')) ? true : undefined),
      () => service.output(),
    );
    return service.output();
  };

  const jsonLines = ({ stdout, stderr }: { stdout: string; stderr: string }) =>
    `${stdout}\n${stderr}`.split('\n').filter((line) => line.startsWith('{'));

  it(
    'shows one short line per request and none of the functions’ JSON logs by default',
    async () => {
      expect(jsonLines(await consoleOf({}))).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'prints the dashboard’s URL first, with no AWS SDK warning about the Node version above or after it',
    async () => {
      const { stdout, stderr } = await consoleOf({ AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined });
      expect(stdout.split('\n')[0]).toMatch(/^Dashboard: http:\/\/\S+\/ \(sign in with any e-mail\)$/);
      expect(stderr).not.toMatch(/NodeVersionSupportWarning|AWS SDK for JavaScript/);
    },
    TEST_MS,
  );

  it.each(['INFO', 'debug'])(
    'shows the functions’ JSON logs too with LOG_LEVEL=%s',
    async (logLevel) => {
      const logs = jsonLines(await consoleOf({ LOG_LEVEL: logLevel })).map(
        (line) => JSON.parse(line) as Record<string, unknown>,
      );
      // The functions' log lines, each request's summary among them; their metrics' lines come too.
      const messages = logs.filter((log) => typeof log.level === 'string' && typeof log.message === 'string');
      expect(messages.length).toBeGreaterThanOrEqual(4);
    },
    TEST_MS,
  );
});

describe('npm start with HOST set to another address', () => {
  let service: NpmService | undefined;
  afterAll(() => service?.stop());

  it(
    'listens there and warns that anyone who reaches it can mint sessions',
    async () => {
      service = await startNpmService({ HOST: '127.0.0.2' });
      expect(service.baseUrl).toBe(`http://127.0.0.2:${service.port}`);
      expect(service.output().stderr).toMatch(/anyone who can reach 127\.0\.0\.2 can mint sessions/i);
      expect((await call(service, 'GET', '/api/v1/openapi.json', { host: '127.0.0.2' })).status).toBe(200);
    },
    TEST_MS,
  );
});

describe('npm run session without a running service', () => {
  it(
    'names BASE_URL in its one-sentence error',
    async () => {
      const port = await freePort();
      const run = await runScript('session', ['you@example.com'], { BASE_URL: `http://127.0.0.1:${port}` });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toBe(
        `No local service answers on http://127.0.0.1:${port}: start it with \`npm start\`, or set BASE_URL to the URL it printed.`,
      );
    },
    TEST_MS,
  );
});
