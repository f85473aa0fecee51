import { createHash, generateKeyPairSync } from 'node:crypto';
import { setClock } from '@lambdas/domain/clock';
import { ErrorText } from '@lambdas/domain/errors';
import { hasScope } from '@lambdas/domain/scopes';
import { routes } from '@lib/routes';
import { SignJWT } from 'jose';
import type { LocalService } from '../../local/service';
import { call, createToken, samplePath, sessionFor, startService, uniqueEmail } from './harness';

let service: LocalService;
let session: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startService();
  session = await sessionFor(service, uniqueEmail());
  const scopeSets: Record<string, string[]> = {
    read: ['read:secrets'],
    write: ['write:secrets'],
    admin: ['admin'],
    'read+write': ['read:secrets', 'write:secrets'],
  };
  for (const [label, scopes] of Object.entries(scopeSets)) {
    tokens[label] = (await createToken(service, session, { name: label, scopes })).rawToken;
  }
});
afterAll(async () => {
  setClock();
  await service.close();
});

const UNAUTHORIZED = { success: false, error: ErrorText.unauthorized };

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  const path = samplePath(route.path);
  const send = (token?: string, headers: [string, string][] = []) =>
    call(service, route.method, path, { token, headers, json: route.hasBody ? {} : undefined });

  it('answers 401 with no Authorization header', async () => {
    const reply = await send();
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(UNAUTHORIZED);
  });

  it.each([
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['no credential', 'Bearer '],
    ['two spaces', `Bearer  ${'svc_live_'}x`],
    ['a wrong prefix', 'Bearer svc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an upper-case prefix', 'Bearer SVC_LIVE_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a well-formed token never issued', 'Bearer svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['garbage', 'Bearer not-a-jwt'],
  ])('answers 401 for %s', async (_label, value) => {
    const reply = await send(undefined, [['Authorization', value]]);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for two Authorization headers', async () => {
    const reply = await send(undefined, [
      ['Authorization', `Bearer ${tokens.admin}`],
      ['Authorization', `Bearer ${tokens.admin}`],
    ]);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for a real token with a checksum character flipped', async () => {
    const raw = tokens.admin ?? '';
    const flipped = `${raw.slice(0, -1)}${raw.endsWith('A') ? 'B' : 'A'}`;
    expect((await send(flipped)).status).toBe(401);
  });

  it('lets a session through', async () => {
    expect([401, 403]).not.toContain((await send(session)).status);
  });

  it.each(['read', 'write', 'admin', 'read+write'])('judges a %s token by the route’s scope rule', async (label) => {
    const reply = await send(tokens[label]);
    const granted =
      label === 'read+write'
        ? ['read:secrets', 'write:secrets']
        : [label === 'read' ? 'read:secrets' : label === 'write' ? 'write:secrets' : 'admin'];
    if (route.tokenScope === null) {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ success: false, error: ErrorText.sessionRequired });
    } else if (hasScope(granted, route.tokenScope)) {
      expect([401, 403]).not.toContain(reply.status);
    } else {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ success: false, error: ErrorText.scope });
    }
  });
});

describe('unknown paths and methods', () => {
  it.each([
    ['GET', '/api/v1/unknown'],
    ['GET', '/'],
    ['PUT', '/api/v1/tokens'],
    ['PATCH', '/api/v1/projects'],
    ['GET', '/api/v1/tokens/AAAAAAAAAAAA'],
    ['GET', '/api/v2/tokens'],
  ])('answers 404 Not found for %s %s, with or without a credential', async (method, path) => {
    for (const token of [undefined, session]) {
      const reply = await call(service, method, path, { token });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.notFound });
    }
  });
});

describe('session verification', () => {
  const { privateKey: strangerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const realKid = () => service.idp.jwks.keys[0]?.kid ?? '';
  const claims = (email: string, overrides: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: service.idp.issuer,
      aud: 'local-dashboard',
      sub: createHash('sha256').update(email).digest('hex').slice(0, 32),
      email,
      email_verified: true,
      token_use: 'id',
      iat: now,
      exp: now + 3600,
      ...overrides,
    };
  };
  const signWithStranger = (payload: Record<string, unknown>, kid = realKid()) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(strangerKey);
  const get = (jwt: string) => call(service, 'GET', '/api/v1/tokens', { token: jwt });

  it('answers 401 for a session signed by another key under the real kid', async () => {
    const reply = await get(await signWithStranger(claims(uniqueEmail())));
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for an unknown kid', async () => {
    expect((await get(await signWithStranger(claims(uniqueEmail()), 'unknown-kid'))).status).toBe(401);
  });

  it('answers 401 for alg none', async () => {
    const jwt = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims(uniqueEmail()))}.`;
    expect((await get(jwt)).body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for HS256 signed with the public key as the secret', async () => {
    const publicJwk = service.idp.jwks.keys[0];
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    const jwt = await new SignJWT(claims(uniqueEmail()))
      .setProtectedHeader({ alg: 'HS256', kid: realKid() })
      .sign(secret);
    expect((await get(jwt)).body).toEqual(UNAUTHORIZED);
  });

  describe('with the provider’s own key', () => {
    const sign = (payload: Record<string, unknown>) => service.idp.sign(payload);

    it('accepts a well-formed session (the control case)', async () => {
      expect((await get(await sign(claims(uniqueEmail())))).status).toBe(200);
    });

    it.each([
      ['a wrong issuer', { iss: 'https://evil.example.com' }],
      ['a wrong audience', { aud: 'another-client' }],
      ['nbf in the future', { nbf: Math.floor(Date.now() / 1000) + 600 }],
      ['email_verified false', { email_verified: false }],
      ['email_verified "false"', { email_verified: 'false' }],
      ['email_verified missing', { email_verified: undefined }],
      ['no e-mail', { email: undefined }],
      ['a Cognito access token', { token_use: 'access', aud: undefined, client_id: 'local-dashboard' }],
    ])('answers 401 for %s', async (_label, overrides) => {
      const reply = await get(await sign(claims(uniqueEmail(), overrides)));
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(UNAUTHORIZED);
    });

    it('answers 401 Authentication token has expired for a session past exp', async () => {
      const now = Math.floor(Date.now() / 1000);
      const reply = await get(await sign(claims(uniqueEmail(), { iat: now - 7200, exp: now - 3600 })));
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ success: false, error: ErrorText.expired });
    });

    it('answers the generic 401, not "expired", for an expired session with a wrong audience', async () => {
      const now = Math.floor(Date.now() / 1000);
      const reply = await get(await sign(claims(uniqueEmail(), { aud: 'other', iat: now - 7200, exp: now - 3600 })));
      expect(reply.body).toEqual(UNAUTHORIZED);
    });
  });
});
