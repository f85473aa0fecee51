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
let rsaKey: Pair;
let psKey: Pair;
/**
 * What the provider answers: the discovery document (or a status, or nothing at all), the key set's
 * status, and what it was asked.
 */
const provider = {
  discoveryStatus: 200,
  discovery: (): Record<string, unknown> => ({ issuer: base, jwks_uri: `${base}/jwks` }),
  discoveryHangs: false,
  jwksStatus: 200,
  discoveries: 0,
  keySetFetches: 0,
  discoveryAccept: '' as string | undefined,
};

beforeAll(async () => {
  key = await generateKeyPair('ES256', { extractable: true });
  stranger = await generateKeyPair('ES256', { extractable: true });
  rsaKey = await generateKeyPair('RS256', { extractable: true });
  psKey = await generateKeyPair('PS256', { extractable: true });
  const keys = [
    { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' },
    { ...(await exportJWK(rsaKey.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(psKey.publicKey)), kid: 'k3', alg: 'PS256', use: 'sig' },
  ];
  server = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      provider.discoveries += 1;
      provider.discoveryAccept = request.headers.accept;
      if (provider.discoveryHangs) return;
      response.writeHead(provider.discoveryStatus, { 'content-type': 'application/json' });
      response.end(JSON.stringify(provider.discovery()));
    } else if (request.url === '/jwks') {
      provider.keySetFetches += 1;
      response.writeHead(provider.jwksStatus, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);

beforeEach(() => {
  provider.discoveryStatus = 200;
  provider.discovery = () => ({ issuer: base, jwks_uri: `${base}/jwks` });
  provider.discoveryHangs = false;
  provider.jwksStatus = 200;
  provider.discoveries = 0;
  provider.keySetFetches = 0;
  provider.discoveryAccept = '';
});

/** The verifier, loaded afresh with this provider as its issuer (and a key set's URL if configured). */
const loadVerifier = (issuer = base, jwksUrl?: string): typeof Verifier => {
  process.env.SESSION_ISSUER = issuer;
  process.env.SESSION_AUDIENCE = AUDIENCE;
  if (jwksUrl) process.env.SESSION_JWKS_URL = jwksUrl;
  else delete process.env.SESSION_JWKS_URL;
  let loaded: typeof Verifier | undefined;
  jest.isolateModules(() => {
    loaded = require('@lambdas/authorizer/session-verifier') as typeof Verifier;
  });
  delete process.env.SESSION_JWKS_URL;
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
  options: { key?: Pair; issuer?: string; audience?: string; omit?: string[]; alg?: string; kid?: string } = {},
) => {
  const payload = claims(fields);
  for (const name of options.omit ?? []) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? 'k1' })
    .setIssuer(options.issuer ?? base)
    .setAudience(options.audience ?? AUDIENCE)
    .sign((options.key ?? key).privateKey);
};

/** The error `verifySession` refuses with. */
const refused = async (verifier: typeof Verifier, jwt: string, at = now): Promise<Error> => {
  try {
    await verifier.verifySession(jwt, at);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the session was accepted');
};

/** The error `verifySession` refuses with, as the authorizer tells them apart: its class and reason. */
const refusal = async (verifier: typeof Verifier, jwt: string, at = now) => {
  const error = await refused(verifier, jwt, at);
  return `${error.name}: ${error.message}`;
};

/** What the log shows of a refusal's cause: its class and message. */
const causeOf = async (verifier: typeof Verifier, jwt: string) => {
  const { cause } = (await refused(verifier, jwt)) as { cause?: Error };
  return cause && `${cause.name}: ${cause.message}`;
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
    await expect(verifier.verifySession(await signed({ iat: 8.64e12 }), now)).resolves.toMatchObject({
      issuedAt: new Date(8.64e15).toISOString(),
    });
  });

  it('accepts a token signed with RS256, as Cognito signs, and refuses another algorithm of the key set', async () => {
    const verifier = loadVerifier();
    const rs256 = await signed({}, { key: rsaKey, alg: 'RS256', kid: 'k2' });
    await expect(verifier.verifySession(rs256, now)).resolves.toMatchObject({ userId: 'user-1' });
    const ps256 = await signed({}, { key: psKey, alg: 'PS256', kid: 'k3' });
    await expect(refusal(verifier, ps256)).resolves.toBe('SessionInvalidError: invalid');
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
    // jose's own reason stays the cause, for the log.
    await expect(causeOf(verifier, jwt)).resolves.toMatch(/^JW[ST]/);
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
    // Not before its issue: judged as of its last valid second, it was good then.
    await expect(refusal(verifier, await signed({ ...expired, nbf: seconds - 7200 }))).resolves.toBe(
      'SessionExpiredError: expired',
    );
  });

  it('says a session that was never valid (not before its own expiry) is invalid, not expired', async () => {
    const verifier = loadVerifier();
    const never = { iat: seconds - 7200, nbf: seconds - 60, exp: seconds - 60 };
    await expect(refusal(verifier, await signed(never))).resolves.toBe('SessionInvalidError: invalid');
  });

  it('tells an expired session by the clock it is given, the real one as any other', async () => {
    const verifier = loadVerifier();
    const realNow = Math.floor(Date.now() / 1000);
    const jwt = await signed({ iat: realNow - 7200, exp: realNow - 60 });
    await expect(refusal(verifier, jwt, new Date())).resolves.toBe('SessionExpiredError: expired');
  });

  it.each(['/', '//'])(
    'finds the key set through the issuer’s discovery document, asked for JSON, once, when the issuer ends in %s',
    async (slashes) => {
      const verifier = loadVerifier(`${base}${slashes}`);
      provider.discovery = () => ({ issuer: `${base}${slashes}`, jwks_uri: `${base}/jwks` });
      const jwt = await signed({}, { issuer: `${base}${slashes}` });
      await expect(verifier.verifySession(jwt, now)).resolves.toMatchObject({ userId: 'user-1' });
      await expect(verifier.verifySession(jwt, now)).resolves.toMatchObject({ userId: 'user-1' });
      expect(provider.discoveries).toBe(1);
      expect(provider.discoveryAccept).toBe('application/json');
      expect(provider.keySetFetches).toBe(1);
    },
  );

  it('takes the key set from SESSION_JWKS_URL when it is set, without discovery', async () => {
    const verifier = loadVerifier(base, `${base}/jwks`);
    await expect(verifier.verifySession(await signed(), now)).resolves.toMatchObject({ userId: 'user-1' });
    expect(provider.discoveries).toBe(0);
  });

  it('asks for the key set with a 2-second limit, and keeps the keys ten minutes', async () => {
    const seen: unknown[] = [];
    jest.doMock('@lambdas/authorizer/jose', () => {
      const jose = jest.requireActual('jose');
      return {
        ...jose,
        createRemoteJWKSet: (url: URL, options: unknown) => {
          seen.push(options);
          return jose.createRemoteJWKSet(url, options);
        },
      };
    });
    try {
      const verifier = loadVerifier();
      await expect(verifier.verifySession(await signed(), now)).resolves.toMatchObject({ userId: 'user-1' });
    } finally {
      jest.dontMock('@lambdas/authorizer/jose');
    }
    expect(seen).toEqual([{ timeoutDuration: 2_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 }]);
  });

  it('cannot judge a session while the key set answers an error', async () => {
    const verifier = loadVerifier();
    provider.jwksStatus = 500;
    await expect(refusal(verifier, await signed())).resolves.toBe('SessionKeysUnavailableError: keys-unavailable');
  });

  it('gives up on a discovery that does not answer, as an outage', async () => {
    const verifier = loadVerifier();
    provider.discoveryHangs = true;
    await expect(refusal(verifier, await signed())).resolves.toBe('SessionKeysUnavailableError: keys-unavailable');
  });

  it.each([
    ['answers an error', () => (provider.discoveryStatus = 500), 'OpenID discovery answered HTTP 500'],
    [
      'names another issuer',
      () => (provider.discovery = () => ({ issuer: 'https://elsewhere.example', jwks_uri: `${base}/jwks` })),
      'OpenID discovery names another issuer',
    ],
    ['names no key set', () => (provider.discovery = () => ({ issuer: base })), 'OpenID discovery has no jwks_uri'],
    [
      'names a key set that is no http URL',
      () => (provider.discovery = () => ({ issuer: base, jwks_uri: 'file:///etc/keys' })),
      'OpenID discovery has no jwks_uri',
    ],
    [
      'names a key set whose URL only mentions http',
      () => (provider.discovery = () => ({ issuer: base, jwks_uri: 'file:///etc/keys?from=http://x' })),
      'OpenID discovery has no jwks_uri',
    ],
  ])(
    'cannot judge a session while discovery %s, says why, and tries again for the next one',
    async (_what, breakIt, why) => {
      const verifier = loadVerifier();
      breakIt();
      const error = (await refused(verifier, await signed())) as Error & { cause?: Error };
      expect(`${error.name}: ${error.message}`).toBe('SessionKeysUnavailableError: keys-unavailable');
      // The reason stays the cause, for the log.
      expect(error.cause?.message).toBe(why);
      provider.discoveryStatus = 200;
      provider.discovery = () => ({ issuer: base, jwks_uri: `${base}/jwks` });
      await expect(verifier.verifySession(await signed(), now)).resolves.toMatchObject({ userId: 'user-1' });
      expect(provider.discoveries).toBe(2);
    },
  );
});
