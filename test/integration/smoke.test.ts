import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorText } from '@contract/errors';
import { methodsByPath } from '@contract/route-table';
import { routes } from '@contract/routes';
import { call, devSession, samplePath, uniqueEmail } from './harness';
import { type ChildEnv, type NpmService, runScript, startNpmService } from './npm-start';

/**
 * `npm run smoke -- <ApiUrl>` as an operator runs it after a deploy, in a child process: against
 * `npm start` every check passes; against servers that answer wrongly the failing checks are named.
 */

const ORIGIN = 'https://dashboard.example.com';
const TEST_MS = 180_000;
/**
 * The checks every run makes: each route without credentials, a forged token, each path's preflight,
 * an unknown path, the per-credential limit's answer.
 */
const BASE_CHECKS = routes.length + 1 + methodsByPath.size + 1 + 1;
/** The token's life with a session: create, use, revoke, refused. */
const SESSION_CHECKS = 4;
const UNAUTHORIZED_BODY = JSON.stringify({ success: false, error: ErrorText.unauthorized });

/** Runs the smoke script to its end, with none of its variables inherited unless given. */
const smoke = (args: readonly string[], env: ChildEnv = {}) =>
  runScript('smoke', args, {
    SMOKE_SESSION: undefined,
    SMOKE_ORIGIN: undefined,
    SMOKE_TIMEOUT_MS: undefined,
    ...env,
  });

const linesOf = (stdout: string): string[] => stdout.split('\n').filter((line) => line !== '');

/** A local HTTP server answering with `answer`; closed in the test's `finally`. */
const serve = async (answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> => {
  const server = createServer(answer);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
};

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const close = async (server: Server): Promise<void> => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
};

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('npm run smoke against npm start', () => {
  let service: NpmService;

  beforeAll(async () => {
    service = await startNpmService({ DASHBOARD_ORIGIN: ORIGIN });
  }, TEST_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it(
    'passes every check without a session, preflighting from the origin the API names',
    async () => {
      const run = await smoke([service.baseUrl]);

      expect(run.timedOut).toBe(false);
      expect(run.stderr).toBe('');
      const lines = linesOf(run.stdout);
      for (const route of routes) {
        expect(lines).toContain(`ok   ${route.method} ${samplePath(route.path)} without credentials → 401`);
      }
      expect(lines).toContain('ok   GET /api/v1/projects with a forged token → 401');
      for (const path of methodsByPath.keys()) {
        expect(lines).toContain(`ok   OPTIONS ${samplePath(path)} preflight from ${ORIGIN} → 204`);
      }
      expect(lines).toContain('ok   GET /api/v1/smoke-no-such-route (unknown path) → 404');
      expect(lines).toContain(
        "ok   GET /api/v1/projects with X-Rate-Limit-Probe: 1 (the per-credential limit's answer) → 429, Retry-After 60",
      );
      expect(lines.filter((line) => line.startsWith('skip '))).toEqual([
        'skip token lifecycle: set SMOKE_SESSION=<ID token> to create, use and revoke a token',
      ]);
      expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
      expect(lines.at(-1)).toBe(`All ${BASE_CHECKS} checks passed on ${service.baseUrl}`);
      expect(run.code).toBe(0);
    },
    TEST_MS,
  );

  it(
    'creates a one-day token with SMOKE_SESSION, uses it, revokes it and sees it refused',
    async () => {
      const session = await devSession(service, uniqueEmail('smoke'));

      const run = await smoke([`${service.baseUrl}/`, '--origin', `${ORIGIN}/`], { SMOKE_SESSION: session });

      const lines = linesOf(run.stdout);
      const created = lines.find((line) => line.startsWith('ok   POST /api/v1/tokens with the session → 201'));
      expect(created).toMatch(/→ 201, token \w{12} "smoke-\d{8}T\d{6}Z" \(\w+…\), expires \S+$/);
      const id = /token (\w{12})/.exec(created ?? '')?.[1];
      expect(lines).toEqual(
        expect.arrayContaining([
          'ok   GET /api/v1/projects with the new token → 200',
          `ok   DELETE /api/v1/tokens/${id} with the session → 200`,
          'ok   GET /api/v1/projects with the revoked token → 401',
        ]),
      );
      expect(lines.filter((line) => line.startsWith('FAIL') || line.startsWith('skip'))).toEqual([]);
      expect(lines.at(-1)).toBe(`All ${BASE_CHECKS + SESSION_CHECKS} checks passed on ${service.baseUrl}`);
      expect(run.code).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain(session);
      // Revoked, so no longer listed: the run leaves no token behind.
      const listed = await call(service, 'GET', '/api/v1/tokens', { token: session });
      expect(listed.body.data).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'fails the preflights, naming them, when the dashboard is on another origin than the API allows',
    async () => {
      const run = await smoke([service.baseUrl], { SMOKE_ORIGIN: 'https://elsewhere.example.com' });

      const failed = linesOf(run.stdout).filter((line) => line.startsWith('FAIL'));
      expect(failed).toHaveLength(methodsByPath.size);
      expect(failed[0]).toBe(
        `FAIL OPTIONS ${samplePath([...methodsByPath.keys()][0] ?? '')} preflight from https://elsewhere.example.com: expected Access-Control-Allow-Origin https://elsewhere.example.com, got ${ORIGIN}`,
      );
      expect(linesOf(run.stdout).at(-1)).toMatch(
        new RegExp(`^${methodsByPath.size} of ${BASE_CHECKS} checks failed on ${service.baseUrl}: OPTIONS /api/v1/`),
      );
      expect(run.code).toBe(1);
    },
    TEST_MS,
  );

  it(
    "fails the per-credential limit's check when its 429 carries no Retry-After",
    async () => {
      const tooMany = JSON.stringify({ success: false, error: ErrorText.tooManyRequests });
      const server = await serve((_request, response) => {
        response.writeHead(429, { 'Content-Type': 'application/json' }).end(tooMany);
      });
      try {
        const run = await smoke([urlOf(server), '--origin', ORIGIN]);

        expect(linesOf(run.stdout)).toContain(
          "FAIL GET /api/v1/projects with X-Rate-Limit-Probe: 1 (the per-credential limit's answer): expected a Retry-After of whole seconds, at least 1, got none",
        );
        expect(run.code).toBe(1);
      } finally {
        await close(server);
      }
    },
    TEST_MS,
  );

  it(
    'fails the last check when a revoked token still works, and never prints the token',
    async () => {
      // A proxy in front of npm start that acknowledges a revocation without passing it on.
      let rawToken = '';
      let createBody: unknown;
      const target = service.baseUrl;
      const proxy = await serve((request, response) => {
        void (async () => {
          const body = await readBody(request);
          if (request.method === 'DELETE' && request.headers.authorization) {
            response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: true }));
            return;
          }
          const headers = Object.fromEntries(
            Object.entries(request.headers).filter(
              (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
            ),
          );
          const upstream = await fetch(`${target}${request.url}`, {
            method: request.method,
            headers,
            body: body.length ? body : undefined,
          });
          const text = await upstream.text();
          if (request.method === 'POST' && upstream.status === 201) {
            createBody = JSON.parse(body.toString('utf8'));
            rawToken = (JSON.parse(text) as { data: { rawToken: string } }).data.rawToken;
          }
          // The body is passed on decoded and whole, so its framing headers are not.
          const passed = [...upstream.headers].filter(
            ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
          );
          response.writeHead(upstream.status, Object.fromEntries(passed)).end(text);
        })();
      });
      const session = await devSession(service, uniqueEmail('smoke-proxy'));
      try {
        const run = await smoke([urlOf(proxy), '--origin', ORIGIN], { SMOKE_SESSION: session });

        const lines = linesOf(run.stdout);
        expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([
          `FAIL GET /api/v1/projects with the revoked token: expected 401 ${UNAUTHORIZED_BODY}, got 200`,
        ]);
        expect(lines.at(-1)).toBe(
          `1 of ${BASE_CHECKS + SESSION_CHECKS} checks failed on ${urlOf(proxy)}: GET /api/v1/projects with the revoked token`,
        );
        expect(run.code).toBe(1);
        expect(createBody).toEqual({ name: expect.stringMatching(/^smoke-/), scopes: ['read:secrets'], ttlDays: 1 });
        expect(rawToken).not.toBe('');
        const printed = `${run.stdout}${run.stderr}`;
        const displayPrefix = /\((\w+)…\)/.exec(printed)?.[1] ?? '';
        expect(rawToken.startsWith(displayPrefix)).toBe(true);
        expect(printed).not.toContain(rawToken.slice(0, displayPrefix.length + 1));
      } finally {
        await close(proxy);
        const listed = await call(service, 'GET', '/api/v1/tokens', { token: session });
        for (const token of listed.body.data as { id: string }[]) {
          await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: session });
        }
      }
    },
    TEST_MS,
  );
});

describe('npm run smoke against a plain npm start, the dashboard on the API’s own origin', () => {
  let service: NpmService;

  beforeAll(async () => {
    service = await startNpmService({ DASHBOARD_ORIGIN: undefined });
  }, TEST_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it(
    'passes every check, and says it skips the CORS preflights a same-origin dashboard never sends',
    async () => {
      const run = await smoke([service.baseUrl]);

      expect(run.stderr).toBe('');
      const lines = linesOf(run.stdout);
      expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
      expect(lines.filter((line) => line.startsWith('skip '))).toEqual([
        `skip CORS preflights: the dashboard is on the API's own origin (${service.baseUrl}), so a browser sends none; pass --origin <DashboardUrl> to check one`,
        'skip token lifecycle: set SMOKE_SESSION=<ID token> to create, use and revoke a token',
      ]);
      expect(lines.at(-1)).toBe(`All ${BASE_CHECKS - methodsByPath.size} checks passed on ${service.baseUrl}`);
      expect(run.code).toBe(0);
    },
    TEST_MS,
  );
});

describe('npm run smoke against a server that answers wrongly', () => {
  it(
    'fails every check, naming each, against a server that answers 200 everywhere',
    async () => {
      const server = await serve((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
      try {
        const run = await smoke([urlOf(server)]);

        const lines = linesOf(run.stdout);
        expect(lines).toContain(
          `FAIL GET /api/v1/tokens without credentials: expected 401 ${UNAUTHORIZED_BODY}, got 200 {"ok":true}`,
        );
        expect(lines).toContain(
          'FAIL GET /api/v1/smoke-no-such-route (unknown path): expected 404 {"success":false,"error":"Not found"}, got 200 {"ok":true}',
        );
        expect(lines).toContain(
          'FAIL CORS preflight: the API names no dashboard origin in its answers (Access-Control-Allow-Origin); pass --origin <DashboardUrl> to check one',
        );
        expect(lines.filter((line) => line.startsWith('ok'))).toEqual([]);
        const summary = lines.at(-1) ?? '';
        const total = BASE_CHECKS - methodsByPath.size + 1;
        expect(summary).toMatch(new RegExp(`^${total} of ${total} checks failed on ${urlOf(server)}: `));
        for (const route of routes) expect(summary).toContain(`${route.method} ${samplePath(route.path)} without`);
        expect(run.code).toBe(1);
      } finally {
        await close(server);
      }
    },
    TEST_MS,
  );

  it(
    "fails on API Gateway's default 401 body, which is not the contract's",
    async () => {
      const server = await serve((_request, response) => {
        response.writeHead(401, { 'Content-Type': 'application/json' }).end('{"message":"Unauthorized"}');
      });
      try {
        const run = await smoke([urlOf(server), '--origin', ORIGIN]);

        expect(linesOf(run.stdout)).toContain(
          `FAIL DELETE ${samplePath('/api/v1/tokens/{id}')} without credentials: expected 401 ${UNAUTHORIZED_BODY}, got 401 {"message":"Unauthorized"}`,
        );
        expect(run.code).toBe(1);
      } finally {
        await close(server);
      }
    },
    TEST_MS,
  );

  it(
    'gives up on a request after SMOKE_TIMEOUT_MS and fails its check',
    async () => {
      // Only this check's request goes unanswered; the others are refused at once, where a server
      // answering none made the run wait out all of its hundred checks one after another.
      const server = await serve((request, response) => {
        if (request.method === 'GET' && request.url === '/api/v1/tokens' && !request.headers.authorization) return;
        response.writeHead(404).end();
      });
      try {
        const run = await smoke([urlOf(server), '--origin', ORIGIN], { SMOKE_TIMEOUT_MS: '200' });

        expect(linesOf(run.stdout)).toContain(
          `FAIL GET /api/v1/tokens without credentials: expected 401 ${UNAUTHORIZED_BODY}, got no answer within 200 ms`,
        );
        expect(run.timedOut).toBe(false);
        expect(run.code).toBe(1);
      } finally {
        await close(server);
      }
    },
    TEST_MS,
  );
});

describe('npm run smoke usage', () => {
  it.each([
    ['no URL', []],
    ['a URL that is not http or https', ['ftp://example.com']],
    ['an unknown option', ['http://127.0.0.1:1', '--verbose']],
  ])(
    'exits 2 with the usage line for %s',
    async (_case, args) => {
      const run = await smoke(args);

      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^Usage: npm run smoke -- <ApiUrl> \[--origin <dashboard URL>\]/m);
    },
    TEST_MS,
  );
});
