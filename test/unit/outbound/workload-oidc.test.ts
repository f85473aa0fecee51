import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import type { OidcRule } from '@contract/trust-rules';
import type { ResolveHost } from '@lambdas/domain/webhook-url';
import {
  CLOCK_SKEW_SECONDS,
  clearWorkloadOidcCaches,
  DISCOVERY_TTL_MS,
  JWKS_COOLDOWN_MS,
  MAX_CACHED_ISSUERS,
  MAX_DOCUMENT_BYTES,
  MAX_TOKEN_LENGTH,
  verifyWorkloadToken,
} from '@lambdas/outbound/workload-oidc';
import {
  base64url,
  exportJWK,
  exportSPKI,
  FlattenedSign,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';

/*
 * The verifier against a real issuer: an HTTP server on 127.0.0.1 serving discovery documents and key
 * sets under a path per issuer, which each test shapes (rotated keys, a lying document, a redirect).
 */

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly pair: KeyPair;
  readonly publicJwk: JWK;
}

const newKey = async (kid: string, alg = 'ES256'): Promise<SigningKey> => {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, pair, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' } };
};

/** How one issuer of the server behaves; tests change it. */
interface IssuerState {
  keys: SigningKey[];
  /** The discovery document's `issuer`; default the issuer's own URL. */
  namedIssuer?: string;
  /** The discovery document's `jwks_uri`; default the issuer's key set. */
  jwksUri?: string;
  redirectDiscovery?: boolean;
  redirectJwks?: boolean;
  hangDiscovery?: boolean;
  /** The discovery document's status; default 200. */
  discoveryStatus?: number;
}

let server: Server;
let base: string;
const issuers = new Map<string, IssuerState>();
/** Every path the server was asked for, in order. */
const requests: string[] = [];

const issuerUrl = (name: string) => `${base}/${name}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const [, name = '', ...rest] = path.split('/');
    const state = issuers.get(name);
    const tail = `/${rest.join('/')}`;
    const json = (body: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!state) {
      res.writeHead(404).end();
      return;
    }
    if (tail === '/.well-known/openid-configuration') {
      if (state.hangDiscovery) return; // never answers
      if (state.redirectDiscovery) {
        res.writeHead(302, { location: `${issuerUrl(name)}/moved/openid-configuration` }).end();
        return;
      }
      json(
        { issuer: state.namedIssuer ?? issuerUrl(name), jwks_uri: state.jwksUri ?? `${issuerUrl(name)}/jwks` },
        state.discoveryStatus,
      );
      return;
    }
    if (tail === '/moved/openid-configuration') {
      json({ issuer: issuerUrl(name), jwks_uri: `${issuerUrl(name)}/jwks` });
      return;
    }
    if (tail === '/jwks') {
      if (state.redirectJwks) {
        res.writeHead(302, { location: `${issuerUrl(name)}/moved/jwks` }).end();
        return;
      }
      json({ keys: state.keys.map((key) => key.publicJwk) });
      return;
    }
    if (tail === '/moved/jwks') {
      json({ keys: state.keys.map((key) => key.publicJwk) });
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

let issuerCount = 0;
/** A fresh issuer of its own name (so no cache of another test applies), with one ES256 key. */
const newIssuer = async (state: Partial<IssuerState> = {}) => {
  const name = `issuer${++issuerCount}`;
  const key = state.keys?.[0] ?? (await newKey(`${name}-key1`));
  const full: IssuerState = { keys: [key], ...state };
  issuers.set(name, full);
  return { name, url: issuerUrl(name), state: full, key };
};

const NOW = new Date('2026-11-29T08:00:00.000Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);
const options = { now: NOW, allowLoopbackHttp: true };

const SUBJECT = 'repo:acme/app:ref:refs/heads/main';
const AUDIENCE = 'secrets-service';

const ruleFor = (issuer: string, overrides: Partial<OidcRule> = {}): OidcRule => ({
  kind: 'oidc',
  issuer,
  audience: AUDIENCE,
  subject: SUBJECT,
  ...overrides,
});

/** A token as the issuer would sign it, with `overrides` on top. */
const tokenFrom = (issuer: string, key: SigningKey, overrides: JWTPayload = {}, header: Record<string, unknown> = {}) =>
  new SignJWT({
    iss: issuer,
    aud: AUDIENCE,
    sub: SUBJECT,
    iat: nowSeconds - 10,
    nbf: nowSeconds - 10,
    exp: nowSeconds + 300,
    repository_owner: 'acme',
    environment: 'production',
    run_attempt: '1',
    ...overrides,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.pair.privateKey);

const requestsTo = (name: string, tail: string) => requests.filter((path) => path === `/${name}${tail}`).length;

beforeEach(() => {
  clearWorkloadOidcCaches();
  jest.restoreAllMocks();
});

describe('verifyWorkloadToken accepts', () => {
  it('a token the rule names exactly, and says which rule and what the token said', async () => {
    const { url, key } = await newIssuer();
    const rule = ruleFor(url, { claims: { repository_owner: 'acme', run_attempt: '1' } });
    const verdict = await verifyWorkloadToken(await tokenFrom(url, key), [rule], options);
    expect(verdict).toMatchObject({ accepted: true, rule, issuer: url, subject: SUBJECT });
    expect(verdict.accepted && verdict.claims.environment).toBe('production');
  });

  it('a subject a wildcard rule matches within one part, and not across a colon', async () => {
    const { url, key } = await newIssuer();
    const rule = ruleFor(url, { subject: 'repo:acme/*:ref:refs/heads/main' });
    const other = await tokenFrom(url, key, { sub: 'repo:acme/billing:ref:refs/heads/main' });
    expect(await verifyWorkloadToken(other, [rule], options)).toMatchObject({ accepted: true, rule });
    const crossing = await tokenFrom(url, key, { sub: 'repo:acme/x:y:ref:refs/heads/main' });
    expect(await verifyWorkloadToken(crossing, [rule], options)).toEqual({ accepted: false, reason: 'subject' });
    const owner = await tokenFrom(url, key, { sub: 'repo:evil/app:ref:refs/heads/main' });
    expect(await verifyWorkloadToken(owner, [rule], options)).toEqual({ accepted: false, reason: 'subject' });
  });

  it('by any one rule of several, reporting the one that accepted', async () => {
    const { url, key } = await newIssuer();
    const rules = [
      ruleFor(url, { subject: 'repo:acme/other:ref:refs/heads/main' }),
      ruleFor(url, { audience: 'another-audience' }),
      ruleFor(url, { claims: { environment: 'production' } }),
    ];
    const verdict = await verifyWorkloadToken(await tokenFrom(url, key), rules, options);
    expect(verdict).toMatchObject({ accepted: true, rule: rules[2] });
    const forOther = await tokenFrom(url, key, { aud: 'another-audience' });
    expect(await verifyWorkloadToken(forOther, rules, options)).toMatchObject({ accepted: true, rule: rules[1] });
  });

  it('an audience among a list of audiences', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { aud: ['elsewhere', AUDIENCE] });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toMatchObject({ accepted: true });
  });

  it.each(['RS256', 'PS384', 'ES384', 'EdDSA'])('a token signed with %s', async (alg) => {
    const key = await newKey(`k-${alg}`, alg);
    const { url } = await newIssuer({ keys: [key] });
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
  });

  it('times within the 60 s of skew', async () => {
    const { url, key } = await newIssuer();
    const skew = CLOCK_SKEW_SECONDS - 5;
    const late = await tokenFrom(url, key, { exp: nowSeconds - skew });
    const early = await tokenFrom(url, key, { nbf: nowSeconds + skew, iat: nowSeconds + skew });
    expect(await verifyWorkloadToken(late, [ruleFor(url)], options)).toMatchObject({ accepted: true });
    expect(await verifyWorkloadToken(early, [ruleFor(url)], options)).toMatchObject({ accepted: true });
  });

  it('a token issued exactly 60 s ahead of the clock', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { iat: nowSeconds + CLOCK_SKEW_SECONDS, nbf: undefined });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toMatchObject({ accepted: true });
  });

  it('tokens of two issuers one after the other, each checked against its own discovery and keys', async () => {
    const first = await newIssuer();
    const second = await newIssuer();
    for (const { url, key } of [first, second, first]) {
      expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
        accepted: true,
        issuer: url,
      });
    }
    expect(requestsTo(second.name, '/.well-known/openid-configuration')).toBe(1);
  });

  it('an issuer named with a trailing slash, its discovery document fetched without a double slash', async () => {
    const issuer = await newIssuer();
    const url = `${issuer.url}/`;
    issuer.state.namedIssuer = url;
    expect(await verifyWorkloadToken(await tokenFrom(url, issuer.key), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
  });

  it(`fetching the discovery document again once it is ${DISCOVERY_TTL_MS / 60_000} minutes old, not before`, async () => {
    const { name, url, key } = await newIssuer();
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    const verify = async () =>
      expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
        accepted: true,
      });
    await verify();
    clock.mockReturnValue(start + DISCOVERY_TTL_MS - 1);
    await verify();
    expect(requestsTo(name, '/.well-known/openid-configuration')).toBe(1);
    clock.mockReturnValue(start + DISCOVERY_TTL_MS);
    await verify();
    expect(requestsTo(name, '/.well-known/openid-configuration')).toBe(2);
  });

  it(`keeping the ${MAX_CACHED_ISSUERS} issuers used last, forgetting the one used least recently`, async () => {
    const verify = async ({ url, key }: Awaited<ReturnType<typeof newIssuer>>) =>
      expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
        accepted: true,
      });
    const kept = [];
    for (let index = 0; index < MAX_CACHED_ISSUERS; index++) kept.push(await newIssuer());
    for (const issuer of kept) await verify(issuer);
    const [first, second, third] = kept as [(typeof kept)[0], (typeof kept)[0], (typeof kept)[0]];
    await verify(first);
    await verify(await newIssuer());
    await verify(first);
    await verify(second);
    const fetched = (issuer: typeof first) => requestsTo(issuer.name, '/.well-known/openid-configuration');
    expect([first, second, third].map(fetched)).toEqual([1, 2, 1]);
  });

  it(`a token exactly ${MAX_TOKEN_LENGTH} characters long`, async () => {
    const { url, key } = await newIssuer();
    const sized = async (length: number) => {
      // A claim pads the payload; a header field fills what base64url's steps of four leave out.
      for (let extra = 0; extra < 4; extra++) {
        const probe = await tokenFrom(url, key, { padding: '' }, { x: 'y'.repeat(extra) });
        const padding = 'x'.repeat(Math.floor(((length - probe.length) * 3) / 4));
        const token = await tokenFrom(url, key, { padding }, { x: 'y'.repeat(extra) });
        if (token.length === length) return token;
      }
      throw new Error(`no token of ${length} characters`);
    };
    expect(await verifyWorkloadToken(await sized(MAX_TOKEN_LENGTH), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
  });

  it('fetching the discovery document and the key set once for many tokens', async () => {
    const { name, url, key } = await newIssuer();
    for (let i = 0; i < 3; i++) {
      expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
        accepted: true,
      });
    }
    expect(requestsTo(name, '/.well-known/openid-configuration')).toBe(1);
    expect(requestsTo(name, '/jwks')).toBe(1);
  });
});

describe('verifyWorkloadToken refuses', () => {
  it('a token of another issuer, fetching nothing', async () => {
    const trusted = await newIssuer();
    const other = await newIssuer();
    const before = requests.length;
    const token = await tokenFrom(other.url, other.key);
    expect(await verifyWorkloadToken(token, [ruleFor(trusted.url)], options)).toEqual({
      accepted: false,
      reason: 'issuer',
    });
    expect(requests.length).toBe(before);
  });

  it('a token claiming the trusted issuer but signed by another', async () => {
    const trusted = await newIssuer();
    const other = await newIssuer();
    // The other issuer's key, under the kid of the trusted one's.
    const forged = await tokenFrom(trusted.url, { ...other.key, kid: trusted.key.kid });
    expect(await verifyWorkloadToken(forged, [ruleFor(trusted.url)], options)).toEqual({
      accepted: false,
      reason: 'signature',
    });
  });

  it('an issuer that differs only by a trailing slash', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(`${url}/`, key);
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'issuer' });
  });

  it('no rules at all', async () => {
    const { url, key } = await newIssuer();
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [], options)).toEqual({
      accepted: false,
      reason: 'issuer',
    });
  });

  it('another audience', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { aud: 'someone-else' });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'audience' });
  });

  it('another subject', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { sub: 'repo:acme/app:ref:refs/heads/dev' });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'subject' });
  });

  it.each([
    ['another value', { environment: 'staging' }],
    ['a list holding the value', { environment: ['production'] }],
    ['an object', { environment: { name: 'production' } }],
    ['a missing claim', { environment: undefined }],
  ])('a required claim with %s', async (_, overrides) => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, overrides);
    const rule = ruleFor(url, { claims: { environment: 'production' } });
    expect(await verifyWorkloadToken(token, [rule], options)).toEqual({ accepted: false, reason: 'claim' });
  });

  it('naming the closest miss of several rules', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { environment: 'staging' });
    const rules = [
      ruleFor(url, { audience: 'elsewhere' }),
      ruleFor(url, { subject: 'repo:acme/other:ref:refs/heads/main' }),
      ruleFor(url, { claims: { environment: 'production' } }),
    ];
    expect(await verifyWorkloadToken(token, rules, options)).toEqual({ accepted: false, reason: 'claim' });
  });

  it('naming the closest miss of several rules, whichever rule comes first', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { environment: 'staging' });
    const rules = [
      ruleFor(url, { claims: { environment: 'production' } }),
      ruleFor(url, { subject: 'repo:acme/other:ref:refs/heads/main' }),
    ];
    expect(await verifyWorkloadToken(token, rules, options)).toEqual({ accepted: false, reason: 'claim' });
  });

  it(`a token longer than ${MAX_TOKEN_LENGTH} characters, fetching nothing`, async () => {
    const { name, url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { padding: 'x'.repeat(MAX_TOKEN_LENGTH) });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'malformed' });
    expect(requestsTo(name, '/.well-known/openid-configuration')).toBe(0);
  });

  it('a token expired beyond the skew', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, {
      iat: nowSeconds - 600,
      nbf: nowSeconds - 600,
      exp: nowSeconds - CLOCK_SKEW_SECONDS - 1,
    });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'expired' });
  });

  it('a token not valid before a time beyond the skew', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { nbf: nowSeconds + CLOCK_SKEW_SECONDS + 30 });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'not-yet-valid',
    });
  });

  it('a token issued ahead of the clock beyond the skew', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { iat: nowSeconds + CLOCK_SKEW_SECONDS + 30, nbf: undefined });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'not-yet-valid',
    });
  });

  it('a token whose sub is not a string', async () => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { sub: 42 as unknown as string });
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'malformed' });
  });

  it.each(['exp', 'iat', 'sub', 'iss'])('a token without %s', async (claim) => {
    const { url, key } = await newIssuer();
    const token = await tokenFrom(url, key, { [claim]: undefined });
    const verdict = await verifyWorkloadToken(token, [ruleFor(url)], options);
    expect(verdict).toEqual({ accepted: false, reason: 'malformed' });
  });

  it('alg none, fetching nothing', async () => {
    const { url } = await newIssuer();
    const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
    const payload = { iss: url, aud: AUDIENCE, sub: SUBJECT, iat: nowSeconds, exp: nowSeconds + 300 };
    const before = requests.length;
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${encode({ alg, typ: 'JWT' })}.${encode(payload)}.`;
      expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({
        accepted: false,
        reason: 'algorithm',
      });
    }
    expect(requests.length).toBe(before);
  });

  it('HS256 signed with the public key of the issuer as the secret', async () => {
    const rsa = await newKey('rsa-key', 'RS256');
    const { url } = await newIssuer({ keys: [rsa] });
    const payload = { iss: url, aud: AUDIENCE, sub: SUBJECT, iat: nowSeconds, exp: nowSeconds + 300 };
    const secrets = [
      new TextEncoder().encode(await exportSPKI(rsa.pair.publicKey)),
      new TextEncoder().encode(JSON.stringify(rsa.publicJwk)),
      base64url.decode(rsa.publicJwk.n ?? ''),
    ];
    for (const [index, secret] of secrets.entries()) {
      for (const alg of ['HS256', 'HS384', 'HS512']) {
        const token = await new SignJWT(payload).setProtectedHeader({ alg, kid: rsa.kid }).sign(secret);
        expect([index, alg, await verifyWorkloadToken(token, [ruleFor(url)], options)]).toEqual([
          index,
          alg,
          { accepted: false, reason: 'algorithm' },
        ]);
      }
    }
  });

  it('a token whose payload its header says is not encoded, though it reads as encoded', async () => {
    const { url, key } = await newIssuer();
    const claims = { iss: url, aud: AUDIENCE, sub: SUBJECT, iat: nowSeconds - 10, exp: nowSeconds + 300 };
    const payload = new TextEncoder().encode(base64url.encode(JSON.stringify(claims)));
    const signed = await new FlattenedSign(payload)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, b64: false, crit: ['b64'] })
      .sign(key.pair.privateKey);
    const token = `${signed.protected}.${signed.payload}.${signed.signature}`;
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'malformed' });
  });

  it('a token whose signature is not base64url', async () => {
    const { url, key } = await newIssuer();
    const [header, payload] = (await tokenFrom(url, key)).split('.');
    const verdict = await verifyWorkloadToken(`${header}.${payload}.not+base64url`, [ruleFor(url)], options);
    expect(verdict).toEqual({ accepted: false, reason: 'malformed' });
  });

  it('a token under a kid that two keys of the set share, signed by neither', async () => {
    const [first, second, forger] = await Promise.all([newKey('shared'), newKey('shared'), newKey('shared')]);
    const { url } = await newIssuer({ keys: [first, second] });
    const verdict = await verifyWorkloadToken(await tokenFrom(url, forger), [ruleFor(url)], options);
    expect(verdict).toEqual({ accepted: false, reason: 'unknown-key' });
  });

  it('an algorithm the key is not for', async () => {
    const es = await newKey('es-key', 'ES256');
    const { url } = await newIssuer({ keys: [es] });
    // Signed with another ES384 key, under the ES256 key's kid: no key of the set fits.
    const other = await newKey('es-key', 'ES384');
    const verdict = await verifyWorkloadToken(await tokenFrom(url, other), [ruleFor(url)], options);
    expect(verdict).toEqual({ accepted: false, reason: 'unknown-key' });
  });

  it('a token whose header makes critical an extension the verifier does not support', async () => {
    const { url, key } = await newIssuer();
    const claims = { iss: url, aud: AUDIENCE, sub: SUBJECT, iat: nowSeconds - 10, exp: nowSeconds + 300 };
    const signed = await new FlattenedSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: key.alg, kid: key.kid, crit: ['urn:example:policy'], 'urn:example:policy': 1 })
      // The issuer knows the extension; the verifier does not.
      .sign(key.pair.privateKey, { crit: { 'urn:example:policy': true } });
    const token = `${signed.protected}.${signed.payload}.${signed.signature}`;
    // jose supports no such extension (JOSENotSupported): refused as what the token asks is not supported.
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'algorithm' });
  });

  it('a tampered token', async () => {
    const { url, key } = await newIssuer();
    const [header, , signature] = (await tokenFrom(url, key)).split('.');
    const payload = base64url.encode(
      JSON.stringify({ iss: url, aud: AUDIENCE, sub: SUBJECT, iat: nowSeconds, exp: nowSeconds + 300 }),
    );
    const verdict = await verifyWorkloadToken(`${header}.${payload}.${signature}`, [ruleFor(url)], options);
    expect(verdict).toEqual({ accepted: false, reason: 'signature' });
  });

  it.each([
    ['empty', ''],
    ['not a JWT', 'hello'],
    ['two parts', 'a.b'],
    ['bad base64', '!!!.???.***'],
    ['too long', `${'a'.repeat(20_000)}.b.c`],
  ])('a malformed token: %s', async (_, token) => {
    const { url } = await newIssuer();
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({ accepted: false, reason: 'malformed' });
  });

  it('an unknown kid, after one refresh of the key set and no more during its cooldown', async () => {
    const { name, url, key } = await newIssuer();
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
    expect(requestsTo(name, '/jwks')).toBe(1);
    const stranger = await newKey('unknown-kid');
    const token = await tokenFrom(url, stranger);
    // Past the cooldown after the first fetch, the unknown kid fetches the set once more.
    const start = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(start + JWKS_COOLDOWN_MS + 1_000);
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'unknown-key',
    });
    expect(requestsTo(name, '/jwks')).toBe(2);
    // Within the cooldown of that fetch, more unknown kids fetch nothing.
    for (let i = 0; i < 3; i++) {
      const another = await tokenFrom(url, await newKey(`made-up-${i}`));
      expect(await verifyWorkloadToken(another, [ruleFor(url)], options)).toEqual({
        accepted: false,
        reason: 'unknown-key',
      });
    }
    expect(requestsTo(name, '/jwks')).toBe(2);
  });

  it('an unknown kid on the first fetch, which refreshes no more than once', async () => {
    const { name, url } = await newIssuer();
    const token = await tokenFrom(url, await newKey('unknown-kid'));
    expect(await verifyWorkloadToken(token, [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'unknown-key',
    });
    expect(requestsTo(name, '/jwks')).toBe(1);
  });

  it('a discovery document naming another issuer', async () => {
    const real = await newIssuer();
    const { url, key } = await newIssuer({ namedIssuer: real.url });
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
  });

  it('a discovery document naming a key set the service may not fetch', async () => {
    for (const jwksUri of ['http://localhost:1/jwks', 'https://10.0.0.1/jwks', 'file:///etc/passwd', '']) {
      const { url, key } = await newIssuer({ jwksUri });
      expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
        accepted: false,
        reason: 'discovery',
      });
    }
  });

  it('a discovery document naming its key set by a host name, though the name resolves to loopback', async () => {
    const issuer = await newIssuer();
    issuer.state.jwksUri = `${issuer.url.replace('127.0.0.1', 'localhost')}/jwks`;
    expect(await verifyWorkloadToken(await tokenFrom(issuer.url, issuer.key), [ruleFor(issuer.url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(requestsTo(issuer.name, '/jwks')).toBe(0);
  });

  it('a discovery document naming its key set in a list', async () => {
    const issuer = await newIssuer();
    issuer.state.jwksUri = [`${issuer.url}/jwks`] as unknown as string;
    expect(await verifyWorkloadToken(await tokenFrom(issuer.url, issuer.key), [ruleFor(issuer.url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(requestsTo(issuer.name, '/jwks')).toBe(0);
  });

  it('a discovery document answered with an error status, whatever it holds', async () => {
    const { name, url, key } = await newIssuer({ discoveryStatus: 500 });
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(requestsTo(name, '/jwks')).toBe(0);
  });

  it(`a discovery document longer than ${MAX_DOCUMENT_BYTES} bytes, or said to be, and takes one exactly that long`, async () => {
    const { url, key } = await newIssuer();
    /** A fetch answering the discovery document padded to `bytes`, with `headers`; the key set as served. */
    const padded =
      (bytes: number, headers: Record<string, string> = {}): typeof fetch =>
      async (input, init) => {
        if (!String(input).endsWith('/openid-configuration')) return fetch(input, init);
        const document = JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` });
        return new Response(document.padEnd(bytes, ' '), { headers });
      };
    const verify = async (fetching: typeof fetch) => {
      clearWorkloadOidcCaches();
      return verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], { ...options, fetch: fetching });
    };
    const exact = String(MAX_DOCUMENT_BYTES);
    expect(await verify(padded(MAX_DOCUMENT_BYTES, { 'content-length': exact }))).toMatchObject({ accepted: true });
    const refused = { accepted: false, reason: 'discovery' };
    expect(await verify(padded(MAX_DOCUMENT_BYTES + 1))).toEqual(refused);
    expect(await verify(padded(100, { 'content-length': String(MAX_DOCUMENT_BYTES + 1) }))).toEqual(refused);
  });

  it('a redirect of the discovery document, not followed', async () => {
    const { name, url, key } = await newIssuer({ redirectDiscovery: true });
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(requestsTo(name, '/moved/openid-configuration')).toBe(0);
  });

  it('a redirect of the key set, not followed', async () => {
    const { name, url, key } = await newIssuer({ redirectJwks: true });
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(requestsTo(name, '/moved/jwks')).toBe(0);
  });

  it('an issuer that answers nothing, within the timeout', async () => {
    const { url, key } = await newIssuer({ hangDiscovery: true });
    const started = performance.now();
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('an issuer whose discovery is not there', async () => {
    const key = await newKey('k');
    const url = `${base}/nobody`;
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
  });

  it('an http issuer but on 127.0.0.1 or [::1], and those only in the local runtime, fetching nothing', async () => {
    const { name, key } = await newIssuer();
    const port = new URL(base).port;
    const before = requests.length;
    for (const issuer of [`http://localhost:${port}/${name}`, `http://127.1:${port}/${name}`]) {
      const token = await tokenFrom(issuer, key);
      expect(await verifyWorkloadToken(token, [ruleFor(issuer)], options)).toEqual({
        accepted: false,
        reason: 'issuer',
      });
    }
    const loopback = issuerUrl(name);
    const token = await tokenFrom(loopback, key);
    expect(await verifyWorkloadToken(token, [ruleFor(loopback)], { ...options, allowLoopbackHttp: false })).toEqual({
      accepted: false,
      reason: 'issuer',
    });
    expect(requests.length).toBe(before);
  });
});

describe('verifyWorkloadToken and key rotation', () => {
  it('picks up a key rotated in once the cooldown after the last fetch is over', async () => {
    const { name, url, key, state } = await newIssuer();
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
    const rotated = await newKey(`${name}-key2`);
    state.keys = [rotated];
    const start = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(start + JWKS_COOLDOWN_MS + 1_000);
    expect(await verifyWorkloadToken(await tokenFrom(url, rotated), [ruleFor(url)], options)).toMatchObject({
      accepted: true,
    });
    expect(requestsTo(name, '/jwks')).toBe(2);
    // The old key is gone from the set now: its tokens name a kid it no longer knows.
    jest.spyOn(Date, 'now').mockReturnValue(start + 2 * JWKS_COOLDOWN_MS + 2_000);
    expect(await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], options)).toEqual({
      accepted: false,
      reason: 'unknown-key',
    });
  });

  it('uses the fetch it is given, refusing a redirect there too', async () => {
    const { url, key } = await newIssuer();
    const seen: RequestInit[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    };
    const verdict = await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], {
      ...options,
      fetch: counting,
    });
    expect(verdict).toMatchObject({ accepted: true });
    expect(seen.map((init) => init.redirect)).toEqual(['error', 'error']);
    const accepts = seen.map((init) => new Headers(init.headers).get('accept'));
    expect(accepts[0]).toBe('application/json');
    expect(accepts[1]).toContain('application/jwk-set+json');
  });

  it('keeps a key set for the fetch it was fetched with: another fetch fetches it again', async () => {
    const { url, key } = await newIssuer();
    const fetched: string[] = [];
    const counting =
      (label: string): typeof fetch =>
      (input, init) => {
        fetched.push(`${label} ${new URL(String(input)).pathname.split('/').pop()}`);
        return fetch(input, init);
      };
    for (const label of ['a', 'b']) {
      const verdict = await verifyWorkloadToken(await tokenFrom(url, key), [ruleFor(url)], {
        ...options,
        fetch: counting(label),
      });
      expect(verdict).toMatchObject({ accepted: true });
    }
    expect(fetched).toEqual(['a openid-configuration', 'a jwks', 'b jwks']);
  });
});

describe('verifyWorkloadToken fetches only from public addresses', () => {
  const ISSUER = 'https://issuer.example.com/ci';
  const DISCOVERY = `${ISSUER}/.well-known/openid-configuration`;
  const PUBLIC = '140.82.112.3';
  let key: SigningKey;
  beforeAll(async () => {
    key = await newKey('public-issuer-key');
  });

  /** An issuer served from memory by an injected fetch, which records every URL it is asked for. */
  const issuerAt = (jwksUri = `${ISSUER}/jwks`) => {
    const asked: string[] = [];
    const served: typeof fetch = async (input) => {
      const url = String(input);
      asked.push(url);
      if (url === DISCOVERY) return Response.json({ issuer: ISSUER, jwks_uri: jwksUri });
      if (url === jwksUri) return Response.json({ keys: [key.publicJwk] });
      return new Response(null, { status: 404 });
    };
    return { asked, fetch: served };
  };

  /** A resolver answering from `table` (host → addresses); other names do not resolve. */
  const resolving =
    (table: Record<string, readonly string[]>): ResolveHost =>
    async (host) => {
      const addresses = table[host];
      if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return addresses;
    };

  const deployed = { now: NOW, allowLoopbackHttp: false };

  it('fetches the documents of a host whose every address is public, and accepts its token', async () => {
    const issuer = issuerAt();
    const resolveHost = resolving({ 'issuer.example.com': [PUBLIC, '2606:4700:4700::1111'] });
    const verdict = await verifyWorkloadToken(await tokenFrom(ISSUER, key), [ruleFor(ISSUER)], {
      ...deployed,
      fetch: issuer.fetch,
      resolveHost,
    });
    expect(verdict).toMatchObject({ accepted: true, issuer: ISSUER });
    expect(issuer.asked).toEqual([DISCOVERY, `${ISSUER}/jwks`]);
  });

  it.each([
    ['resolves to a private address', { 'issuer.example.com': ['10.0.0.5'] }],
    ['resolves to loopback', { 'issuer.example.com': ['127.0.0.1'] }],
    ['resolves to the metadata address (link-local)', { 'issuer.example.com': ['169.254.169.254'] }],
    ['resolves to IPv6 loopback', { 'issuer.example.com': ['::1'] }],
    ['resolves to an IPv6 unique local address', { 'issuer.example.com': ['fc00::1'] }],
    ['resolves to a public and a private address', { 'issuer.example.com': [PUBLIC, '10.0.0.5'] }],
    ['resolves to no address at all', { 'issuer.example.com': [] }],
    ['does not resolve', {}],
  ])('refuses an issuer whose host %s, requesting nothing', async (_, names) => {
    const issuer = issuerAt();
    const verdict = await verifyWorkloadToken(await tokenFrom(ISSUER, key), [ruleFor(ISSUER)], {
      ...deployed,
      fetch: issuer.fetch,
      resolveHost: resolving(names),
    });
    expect(verdict).toEqual({ accepted: false, reason: 'discovery' });
    expect(issuer.asked).toEqual([]);
  });

  it('refuses a private address in the local runtime too, where only loopback is let through', async () => {
    const issuer = issuerAt();
    const verdict = await verifyWorkloadToken(await tokenFrom(ISSUER, key), [ruleFor(ISSUER)], {
      ...deployed,
      allowLoopbackHttp: true,
      fetch: issuer.fetch,
      resolveHost: resolving({ 'issuer.example.com': ['192.168.1.10'] }),
    });
    expect(verdict).toEqual({ accepted: false, reason: 'discovery' });
    expect(issuer.asked).toEqual([]);
  });

  it('refuses a key set whose host resolves to a private address, requesting only the discovery document', async () => {
    const jwksUri = 'https://keys.example.com/jwks';
    const issuer = issuerAt(jwksUri);
    const verdict = await verifyWorkloadToken(await tokenFrom(ISSUER, key), [ruleFor(ISSUER)], {
      ...deployed,
      fetch: issuer.fetch,
      resolveHost: resolving({ 'issuer.example.com': [PUBLIC], 'keys.example.com': ['169.254.169.254'] }),
    });
    expect(verdict).toEqual({ accepted: false, reason: 'discovery' });
    expect(issuer.asked).toEqual([DISCOVERY]);
  });

  it('checks the key set host again when it fetches the set again, refusing once it resolves privately', async () => {
    const issuer = issuerAt();
    const table: Record<string, readonly string[]> = { 'issuer.example.com': [PUBLIC] };
    const network = { ...deployed, fetch: issuer.fetch, resolveHost: resolving(table) };
    expect(await verifyWorkloadToken(await tokenFrom(ISSUER, key), [ruleFor(ISSUER)], network)).toMatchObject({
      accepted: true,
    });
    table['issuer.example.com'] = ['10.0.0.5'];
    // A kid the cached set does not know, past the cooldown: the set is fetched again, and refused now.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + JWKS_COOLDOWN_MS + 1_000);
    const rotated = await tokenFrom(ISSUER, await newKey('rotated-in'));
    expect(await verifyWorkloadToken(rotated, [ruleFor(ISSUER)], network)).toEqual({
      accepted: false,
      reason: 'discovery',
    });
    expect(issuer.asked).toEqual([DISCOVERY, `${ISSUER}/jwks`]);
  });

  it('connects, by default, to the address the check resolved, not to a second lookup of the name', async () => {
    // A bare TCP server on 127.0.0.2 counts connections; `localhost` resolves to 127.0.0.1 here, where it
    // does not listen. The resolver says 127.0.0.2, which only the local runtime may fetch.
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    tcp.listen(0, '127.0.0.2');
    await once(tcp, 'listening');
    try {
      const issuer = `https://localhost:${(tcp.address() as AddressInfo).port}/ci`;
      const verdict = await verifyWorkloadToken(await tokenFrom(issuer, key), [ruleFor(issuer)], {
        ...deployed,
        allowLoopbackHttp: true,
        resolveHost: resolving({ localhost: ['127.0.0.2'] }),
      });
      // No TLS is spoken there, so the fetch fails; what counts is where it connected.
      expect(verdict).toEqual({ accepted: false, reason: 'discovery' });
      expect(connections).toBe(1);
    } finally {
      tcp.close();
    }
  });
});
