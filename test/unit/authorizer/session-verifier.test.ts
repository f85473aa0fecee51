import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Verifier from '@lambdas/authorizer/session-verifier';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/**
 * The session verifier against an identity provider on loopback: its discovery document and key set
 * served by a local server, its tokens signed with keys made here. The verifier reads its issuer and
 * audience when it loads, and keeps the key set it found, so each test loads it afresh.
 */

const AUDIENCE = 'dashboard-client';
const now = new Date('2031-02-03T04:05:06.000Z');
const seconds = Math.floor(now.getTime() / 1000);

type Pair = Awaited<ReturnType<typeof generateKeyPair>>;
let server: Server;
let base = '';
let key: Pair;
let stranger: Pair;
/** What the provider answers: the discovery document (or a status), and which keys its set holds. */
const provider = {
  discoveryStatus: 200,
  discovery: (): Record<string, unknown> => ({ issuer: base, jwks_uri: `${base}/jwks` }),
  discoveries: 0,
};

beforeAll(async () => {
  key = await generateKeyPair('ES256', { extractable: true });
  stranger = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      provider.discoveries += 1;
      response.writeHead(provider.discoveryStatus, { 'content-type': 'application/json' });
      response.end(JSON.stringify(provider.discovery()));
    } else if (request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  provider.discoveryStatus = 200;
  provider.discovery = () => ({ issuer: base, jwks_uri: `${base}/jwks` });
  provider.discoveries = 0;
});

/** The verifier, loaded afresh with this provider as its issuer. */
const loadVerifier = (issuer = base): typeof Verifier => {
  process.env.SESSION_ISSUER = issuer;
  process.env.SESSION_AUDIENCE = AUDIENCE;
  delete process.env.SESSION_JWKS_URL;
  let loaded: typeof Verifier | undefined;
  jest.isolateModules(() => {
    loaded = require('@lambdas/authorizer/session-verifier') as typeof Verifier;
  });
  return loaded as typeof Verifier;
};

const claims = (fields: JWTPayload = {}): JWTPayload => ({
  sub: 'user-1',
  email: 'Ada@Example.com',
  email_verified: true,
  token_use: 'id',
  iat: seconds - 60,
  exp: seconds + 3600,
  ...fields,
});

const signed = (
  fields: JWTPayload = {},
  options: { key?: Pair; issuer?: string; audience?: string; omit?: string[] } = {},
) => {
  const payload = claims(fields);
  for (const name of options.omit ?? []) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(options.issuer ?? base)
    .setAudience(options.audience ?? AUDIENCE)
    .sign((options.key ?? key).privateKey);
};

/** The error `verifySession` refuses with, as the authorizer tells them apart: its class and reason. */
const refusal = async (verifier: typeof Verifier, jwt: string) => {
  try {
    await verifier.verifySession(jwt, now);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  throw new Error('the session was accepted');
};

describe('verifySession', () => {
  it('accepts an ID token of the issuer and audience, signed by a key of its set: the user, the verified e-mail and when it was issued', async () => {
    const verifier = loadVerifier();
    await expect(verifier.verifySession(await signed(), now)).resolves.toEqual({
      userId: 'user-1',
      email: 'ada@example.com',
      issuedAt: new Date((seconds - 60) * 1000).toISOString(),
    });
    await expect(verifier.verifySession(await signed({ sub: 'u'.repeat(255) }), now)).resolves.toMatchObject({
      userId: 'u'.repeat(255),
    });
    await expect(verifier.verifySession(await signed({ token_use: undefined }), now)).resolves.toMatchObject({
      userId: 'user-1',
    });
  });

  it.each([
    ['an access token', { token_use: 'access' }, 'not-id-token'],
    ['an unverified e-mail', { email_verified: false }, 'email-unverified'],
    ['an e-mail verified only as text', { email_verified: 'true' }, 'email-unverified'],
    ['no e-mail', { email: undefined }, 'email-invalid'],
    ['an e-mail that is no address', { email: 'ada' }, 'email-invalid'],
    ['a subject of another type', { sub: 42 }, 'no-subject'],
    ['a subject over 255 characters', { sub: 'u'.repeat(256) }, 'no-subject'],
    ['a subject with a control character', { sub: 'user\u0007' }, 'no-subject'],
    ['a subject that starts with a control character', { sub: '\u0007user' }, 'no-subject'],
    ['a subject with a line separator', { sub: 'user\u2028' }, 'no-subject'],
    ['a subject of a format character only', { sub: '\u200b' }, 'no-subject'],
    ['an issue time past what a date holds', { iat: 8.64e12 + 1 }, 'no-issue-time'],
  ])('refuses %s as a session', async (_what, fields, reason) => {
    const verifier = loadVerifier();
    await expect(refusal(verifier, await signed(fields as JWTPayload))).resolves.toBe(`SessionInvalidError: ${reason}`);
  });

  it.each([
    ['another key', { key: undefined as Pair | undefined, stranger: true }],
    ['another issuer', { issuer: 'https://elsewhere.example' }],
    ['another audience', { audience: 'another-client' }],
    ['no issue time', { omit: ['iat'] }],
  ])('refuses a token of %s as invalid', async (_what, options) => {
    const verifier = loadVerifier();
    const { stranger: byStranger, ...rest } = options as { stranger?: boolean } & Parameters<typeof signed>[1];
    const jwt = await signed({}, byStranger ? { ...rest, key: stranger } : rest);
    await expect(refusal(verifier, jwt)).resolves.toBe('SessionInvalidError: invalid');
  });

  it('says a session past its expiry is expired only when it is otherwise good', async () => {
    const verifier = loadVerifier();
    const expired = { iat: seconds - 7200, exp: seconds - 60 };
    await expect(refusal(verifier, await signed(expired))).resolves.toBe('SessionExpiredError: expired');
    await expect(refusal(verifier, await signed(expired, { key: stranger }))).resolves.toBe(
      'SessionInvalidError: invalid',
    );
    await expect(refusal(verifier, await signed({ ...expired, email_verified: false }))).resolves.toBe(
      'SessionInvalidError: email-unverified',
    );
  });

  it('finds the key set through the issuer’s discovery document, once, whatever slash ends the issuer', async () => {
    const verifier = loadVerifier(`${base}/`);
    provider.discovery = () => ({ issuer: `${base}/`, jwks_uri: `${base}/jwks` });
    const jwt = await signed({}, { issuer: `${base}/` });
    await expect(verifier.verifySession(jwt, now)).resolves.toMatchObject({ userId: 'user-1' });
    await expect(verifier.verifySession(jwt, now)).resolves.toMatchObject({ userId: 'user-1' });
    expect(provider.discoveries).toBe(1);
  });

  it.each([
    ['answers an error', () => (provider.discoveryStatus = 500)],
    [
      'names another issuer',
      () => (provider.discovery = () => ({ issuer: 'https://elsewhere.example', jwks_uri: `${base}/jwks` })),
    ],
    ['names no key set', () => (provider.discovery = () => ({ issuer: base }))],
    [
      'names a key set that is no http URL',
      () => (provider.discovery = () => ({ issuer: base, jwks_uri: 'file:///etc/keys' })),
    ],
  ])('cannot judge a session while discovery %s, and tries again for the next one', async (_what, breakIt) => {
    const verifier = loadVerifier();
    breakIt();
    await expect(refusal(verifier, await signed())).resolves.toBe('SessionKeysUnavailableError: keys-unavailable');
    provider.discoveryStatus = 200;
    provider.discovery = () => ({ issuer: base, jwks_uri: `${base}/jwks` });
    await expect(verifier.verifySession(await signed(), now)).resolves.toMatchObject({ userId: 'user-1' });
    expect(provider.discoveries).toBe(2);
  });
});
