import { generateKeyPairSync } from 'node:crypto';
import { ErrorText } from '@contract/errors';
import type { RouteContract } from '@contract/route';
import { hasBody } from '@contract/route-table';
import { routes } from '@contract/routes';
import { hasScope, type Scope } from '@contract/scopes';
import { setClock } from '@lambdas/domain/clock';
import { mintToken, withChecksum } from '@lambdas/domain/token-format';
import { SignJWT } from 'jose';
import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { call, createToken, type Reply, samplePath, sessionFor, startService, uniqueEmail } from './harness';

/**
 * Every route of the route table against every credential below: a new route is covered without
 * editing this file. Each case states what docs/api.md says the client must see.
 */

type Expected = { status: number; error: string } | 'allowed' | 'by-scope';

interface Credential {
  readonly name: string;
  /** Authorization header values to send (none, one or several). */
  readonly authorization: () => string[];
  readonly expected: Expected;
  readonly from?: string;
  readonly headers?: [string, string][];
  /** Moves the clock for this case. */
  readonly atOffsetMs?: number;
  /** Must be refused before any database call. */
  readonly noDatabase?: boolean;
  /** For `by-scope`: the scopes the token holds. */
  readonly scopes?: readonly Scope[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const UNAUTHORIZED = { status: 401, error: ErrorText.unauthorized };
const EXPIRED = { status: 401, error: ErrorText.expired };
const WRONG_IP = { status: 403, error: ErrorText.wrongIp };

let service: LocalService;
let proxy: CountingProxy;
const raw: Record<string, string> = {};
let session = '';
let email = '';

beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startService({ dynamoEndpoint: proxy.endpoint });
  email = uniqueEmail('matrix');
  session = await sessionFor(service, email);
  const make = async (name: string, scopes: Scope[], extra: Record<string, unknown> = {}) => {
    raw[name] = (await createToken(service, session, { name, scopes, ...extra }, '127.0.0.1')).rawToken;
  };
  await make('read', ['read:secrets']);
  await make('write', ['write:secrets']);
  await make('admin', ['admin']);
  await make('read+write', ['read:secrets', 'write:secrets']);
  await make('short', ['admin'], { ttlDays: 1 });
  const revoked = await createToken(service, session, { name: 'revoked', scopes: ['admin'] }, '127.0.0.1');
  raw.revoked = revoked.rawToken;
  await call(service, 'DELETE', `/api/v1/tokens/${revoked.id}`, { token: session });
});
afterAll(async () => {
  setClock();
  await service.close();
  await proxy.close();
});
afterEach(() => setClock());

const token = (name: string) => raw[name] ?? '';
const bearer = (value: string) => [`Bearer ${value}`];
const nowSeconds = () => Math.floor(Date.now() / 1000);
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: service.idp.issuer,
  aud: 'local-dashboard',
  sub: 'matrix-subject',
  email,
  email_verified: true,
  token_use: 'id',
  iat: nowSeconds(),
  exp: nowSeconds() + 3600,
  ...overrides,
});
const { privateKey: strangerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const kid = () => String(service.idp.jwks.keys[0]?.kid);
// Sessions are signed when the case runs, so their iat/exp follow the real clock.
const signed: Record<string, string> = {};

const alterSecret = (rawToken: string) => {
  const body = rawToken.slice(0, -6);
  const last = body.endsWith('A') ? 'B' : 'A';
  return withChecksum(`${body.slice(0, -1)}${last}`);
};
const flipChecksum = (rawToken: string) => `${rawToken.slice(0, -1)}${rawToken.endsWith('A') ? 'B' : 'A'}`;
// UTF-8 bytes of a Cyrillic "А" in place of a Latin "A", sent as they are on the wire.
const lookAlike = (rawToken: string) =>
  `${rawToken.slice(0, 20)}${Buffer.from('\u0410', 'utf8').toString('latin1')}${rawToken.slice(21)}`;

const credentials: Credential[] = [
  { name: 'no Authorization header', authorization: () => [], expected: UNAUTHORIZED, noDatabase: true },
  { name: 'Basic scheme', authorization: () => ['Basic dXNlcjpwYXNz'], expected: UNAUTHORIZED, noDatabase: true },
  { name: 'scheme without credential', authorization: () => ['Bearer'], expected: UNAUTHORIZED, noDatabase: true },
  {
    name: 'two spaces after Bearer',
    authorization: () => [`Bearer  ${token('admin')}`],
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'a space inside the token',
    authorization: () => bearer(`${token('admin').slice(0, 20)} ${token('admin').slice(20)}`),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'two Authorization headers',
    authorization: () => [...bearer(token('admin')), ...bearer(token('admin'))],
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'prefix svc_test_',
    authorization: () => bearer(token('admin').replace('svc_live_', 'svc_test_')),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'prefix SVC_LIVE_',
    authorization: () => bearer(token('admin').replace('svc_live_', 'SVC_LIVE_')),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'one checksum character flipped',
    authorization: () => bearer(flipChecksum(token('admin'))),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'a non-base62 character',
    authorization: () => bearer(`${token('admin').slice(0, 20)}-${token('admin').slice(21)}`),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'a Unicode look-alike',
    authorization: () => bearer(lookAlike(token('admin'))),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'a 10 KB token',
    authorization: () => bearer(`svc_live_${'A'.repeat(10_240)}`),
    expected: UNAUTHORIZED,
    noDatabase: true,
  },
  {
    name: 'a well-formed token never issued',
    authorization: () => bearer(mintToken().rawToken),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a real token with its secret altered',
    authorization: () => bearer(alterSecret(token('admin'))),
    expected: UNAUTHORIZED,
  },
  { name: 'a revoked token', authorization: () => bearer(token('revoked')), expected: UNAUTHORIZED },
  { name: 'an expired token', authorization: () => bearer(token('short')), expected: EXPIRED, atOffsetMs: 2 * DAY_MS },
  {
    name: 'a token from another IP',
    authorization: () => bearer(token('admin')),
    expected: WRONG_IP,
    from: '127.0.0.2',
  },
  {
    name: 'a token from another IP naming the bound IP in X-Forwarded-For and X-Real-IP',
    authorization: () => bearer(token('admin')),
    expected: WRONG_IP,
    from: '127.0.0.2',
    headers: [
      ['X-Forwarded-For', '127.0.0.1'],
      ['X-Real-IP', '127.0.0.1'],
    ],
  },
  {
    name: 'a read:secrets token',
    authorization: () => bearer(token('read')),
    expected: 'by-scope',
    scopes: ['read:secrets'],
  },
  {
    name: 'a write:secrets token',
    authorization: () => bearer(token('write')),
    expected: 'by-scope',
    scopes: ['write:secrets'],
  },
  { name: 'an admin token', authorization: () => bearer(token('admin')), expected: 'by-scope', scopes: ['admin'] },
  {
    name: 'a read+write token',
    authorization: () => bearer(token('read+write')),
    expected: 'by-scope',
    scopes: ['read:secrets', 'write:secrets'],
  },
  {
    name: 'an admin token with scheme "bearer"',
    authorization: () => [`bearer ${token('admin')}`],
    expected: 'by-scope',
    scopes: ['admin'],
  },
  {
    name: 'an admin token with scheme "BEARER"',
    authorization: () => [`BEARER ${token('admin')}`],
    expected: 'by-scope',
    scopes: ['admin'],
  },
  { name: 'a valid session', authorization: () => bearer(session), expected: 'allowed' },
  {
    name: 'a valid session from another IP',
    authorization: () => bearer(session),
    expected: 'allowed',
    from: '127.0.0.2',
  },
  { name: 'an expired session', authorization: () => bearer(signed.expired ?? ''), expected: EXPIRED },
  { name: 'a session with nbf in the future', authorization: () => bearer(signed.nbf ?? ''), expected: UNAUTHORIZED },
  {
    name: 'a session signed by another key',
    authorization: () => bearer(signed.stranger ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session with alg none',
    authorization: () => bearer(`${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims())}.`),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session signed HS256 with the public key',
    authorization: () => bearer(signed.hs256 ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session with an unknown kid',
    authorization: () => bearer(signed.unknownKid ?? ''),
    expected: UNAUTHORIZED,
  },
  { name: 'a session from another issuer', authorization: () => bearer(signed.issuer ?? ''), expected: UNAUTHORIZED },
  {
    name: 'a session for another audience',
    authorization: () => bearer(signed.audience ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a Cognito access token (client_id, token_use access)',
    authorization: () => bearer(signed.access ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session with email_verified false',
    authorization: () => bearer(signed.unverified ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session without email_verified',
    authorization: () => bearer(signed.noVerified ?? ''),
    expected: UNAUTHORIZED,
  },
  {
    name: 'a session with email_verified "false"',
    authorization: () => bearer(signed.stringFalse ?? ''),
    expected: UNAUTHORIZED,
  },
];

beforeAll(async () => {
  const sign = (overrides: Record<string, unknown>) => service.idp.sign(claims(overrides));
  signed.expired = await sign({ iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 });
  signed.nbf = await sign({ nbf: nowSeconds() + 600 });
  signed.stranger = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: kid() }).sign(strangerKey);
  signed.hs256 = await new SignJWT(claims())
    .setProtectedHeader({ alg: 'HS256', kid: kid() })
    .sign(new TextEncoder().encode(JSON.stringify(service.idp.jwks.keys[0])));
  signed.unknownKid = await new SignJWT(claims())
    .setProtectedHeader({ alg: 'RS256', kid: 'unknown' })
    .sign(strangerKey);
  signed.issuer = await sign({ iss: 'https://evil.example.com' });
  signed.audience = await sign({ aud: 'another-client' });
  signed.access = await sign({ token_use: 'access', aud: undefined, client_id: 'local-dashboard', email: undefined });
  signed.unverified = await sign({ email_verified: false });
  signed.noVerified = await sign({ email_verified: undefined });
  signed.stringFalse = await sign({ email_verified: 'false' });
});

const expectationFor = (credential: Credential, route: RouteContract): Expected => {
  if (credential.expected !== 'by-scope') return credential.expected;
  if (route.tokenScope === null) return { status: 403, error: ErrorText.sessionRequired };
  return hasScope(credential.scopes ?? [], route.tokenScope) ? 'allowed' : { status: 403, error: ErrorText.scope };
};

const send = (route: RouteContract, credential: Credential): Promise<Reply> => {
  const headers: [string, string][] = credential.authorization().map((value) => ['Authorization', value]);
  return call(service, route.method, samplePath(route.path), {
    headers: [...headers, ...(credential.headers ?? [])],
    json: hasBody(route) ? {} : undefined,
    from: credential.from ?? '127.0.0.1',
  });
};

describe.each(
  routes.filter((route) => !route.signIn).map((route) => [`${route.method} ${route.path}`, route] as const),
)('%s', (_name, route) => {
  it.each(credentials.map((credential) => [credential.name, credential] as const))(
    'with %s',
    async (_label, credential) => {
      if (credential.atOffsetMs) setClock({ now: () => new Date(Date.now() + (credential.atOffsetMs ?? 0)) });
      const before = proxy.operations.length;
      const reply = await send(route, credential);
      const expected = expectationFor(credential, route);
      if (expected === 'allowed' || expected === 'by-scope') {
        expect([401, 403]).not.toContain(reply.status);
        expect(reply.status).toBeLessThan(500);
      } else {
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: expected.status,
          body: { success: false, error: expected.error },
        });
      }
      if (credential.noDatabase) expect(proxy.operations.slice(before)).toEqual([]);
    },
  );
});

describe.each(routes.filter((route) => route.signIn).map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s, a sign-in that takes no credential',
  (_name, route) => {
    it.each(credentials.map((credential) => [credential.name, credential] as const))(
      'is judged by the route itself with %s: no authorizer answers it',
      async (_label, credential) => {
        if (credential.atOffsetMs) setClock({ now: () => new Date(Date.now() + (credential.atOffsetMs ?? 0)) });
        const reply = await send(route, credential);
        // The empty body's refusal is the route's own: the authorizer would have answered 401 or 403.
        expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: ErrorText.validation });
      },
    );
  },
);

describe('unknown paths and methods', () => {
  it.each([
    ['GET', '/api/v1/unknown'],
    ['GET', '/api'],
    ['PUT', '/api/v1/tokens'],
    ['PATCH', '/api/v1/projects'],
    ['GET', '/api/v1/tokens/AAAAAAAAAAAA'],
    ['GET', '/api/v2/tokens'],
  ])('answers 404 Not found for %s %s, with or without a credential', async (method, path) => {
    for (const credential of [undefined, session]) {
      const reply = await call(service, method, path, { token: credential });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.notFound });
    }
  });
});
