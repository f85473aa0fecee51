import type { OidcRule } from '@contract/trust-rules';
import { clock } from '@lambdas/domain/clock';
import { clearWorkloadOidcCaches, verifyWorkloadToken } from '@lambdas/outbound/workload-oidc';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { DEV_WORKLOAD_AUDIENCE } from '../../local/dev-workload';
import type { LocalService } from '../../local/service';
import { call, startService } from './harness';
import { runScript } from './npm-start';

/*
 * The local runtime's development workload issuer (`/_dev/workload`) and `npm run workload-token`: its
 * tokens pass the verifier of `oidc` trust rules with the local runtime's loopback allowance, and only
 * with it.
 */

const SCRIPT_MS = 60_000;
const SUBJECT = 'repo:acme/app:ref:refs/heads/main';

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.close());
beforeEach(() => clearWorkloadOidcCaches());

const issuerOf = () => `${service.baseUrl}/_dev/workload`;
const ruleFor = (overrides: Partial<OidcRule> = {}): OidcRule => ({
  kind: 'oidc',
  issuer: issuerOf(),
  audience: DEV_WORKLOAD_AUDIENCE,
  subject: SUBJECT,
  ...overrides,
});
const local = () => ({ now: clock.now(), allowLoopbackHttp: true });

const tokenFor = async (json: unknown) => call(service, 'POST', '/_dev/workload/token', { json });

describe('the development workload issuer', () => {
  it('serves its discovery document and key set under /_dev/workload', async () => {
    expect(service.workload.issuer).toBe(issuerOf());
    const discovery = await call(service, 'GET', '/_dev/workload/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body).toMatchObject({
      issuer: issuerOf(),
      jwks_uri: `${issuerOf()}/.well-known/jwks.json`,
    });
    const jwks = await call(service, 'GET', '/_dev/workload/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
  });

  it('issues a token the verifier accepts in the local runtime only', async () => {
    const reply = await tokenFor({ sub: SUBJECT, claims: { environment: 'production' } });
    expect(reply.status).toBe(200);
    const token = reply.body.token as string;
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: issuerOf(), sub: SUBJECT, aud: DEV_WORKLOAD_AUDIENCE });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
    expect(decodeProtectedHeader(token).alg).toBe('ES256');

    const rule = ruleFor({ subject: 'repo:acme/*:ref:refs/heads/main', claims: { environment: 'production' } });
    expect(await verifyWorkloadToken(token, [rule], local())).toMatchObject({ accepted: true, subject: SUBJECT });
    expect(await verifyWorkloadToken(token, [rule], { ...local(), allowLoopbackHttp: false })).toEqual({
      accepted: false,
      reason: 'issuer',
    });
    expect(await verifyWorkloadToken(token, [ruleFor({ audience: 'other' })], local())).toEqual({
      accepted: false,
      reason: 'audience',
    });
  });

  it('takes an audience and a life of up to an hour', async () => {
    const reply = await tokenFor({ sub: SUBJECT, aud: 'my-audience', expiresIn: 3600 });
    const claims = decodeJwt(reply.body.token);
    expect(claims.aud).toBe('my-audience');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
  });

  it.each([
    ['no subject', {}],
    ['an empty subject', { sub: '' }],
    ['a life over an hour', { sub: SUBJECT, expiresIn: 3601 }],
    ['a life of no time', { sub: SUBJECT, expiresIn: 0 }],
    ['an issuer claim', { sub: SUBJECT, claims: { iss: 'https://token.actions.githubusercontent.com' } }],
    ['a claim that is an object', { sub: SUBJECT, claims: { x: { y: 1 } } }],
    ['an unknown field', { sub: SUBJECT, issuer: 'x' }],
  ])('refuses a request with %s', async (_, json) => {
    const reply = await tokenFor(json);
    expect(reply.status).toBe(400);
    expect(reply.body.token).toBeUndefined();
  });

  it('answers only to a loopback host name', async () => {
    const reply = await call(service, 'POST', '/_dev/workload/token', {
      json: { sub: SUBJECT },
      headers: [['Host', `attacker.example:${service.port}`]],
    });
    expect(reply.status).toBe(403);
    expect(reply.body.token).toBeUndefined();
  });
});

describe('npm run workload-token', () => {
  const run = (args: readonly string[]) => runScript('workload-token', args, { BASE_URL: service.baseUrl }, SCRIPT_MS);

  it(
    'prints one token with the subject, audience, claims and life asked for',
    async () => {
      const result = await run([
        '--sub',
        SUBJECT,
        '--aud',
        'ci-audience',
        '--claim',
        'environment=production',
        '--claim',
        'ref=refs/heads/main',
        '--expires-in',
        '10m',
      ]);
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const token = lines[0] ?? '';
      expect(decodeJwt(token)).toMatchObject({
        iss: issuerOf(),
        sub: SUBJECT,
        aud: 'ci-audience',
        environment: 'production',
        ref: 'refs/heads/main',
      });
      const claims = decodeJwt(token);
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(600);
      const rule = ruleFor({ audience: 'ci-audience', claims: { environment: 'production' } });
      expect(await verifyWorkloadToken(token, [rule], local())).toMatchObject({ accepted: true, rule });
    },
    SCRIPT_MS,
  );

  it(
    'exits 2 with its usage when the subject is missing or the life is too long',
    async () => {
      for (const args of [[], ['--sub', SUBJECT, '--expires-in', '2h'], ['--sub', SUBJECT, '--claim', 'novalue']]) {
        const result = await run(args);
        expect([args, result.code]).toEqual([args, 2]);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('Usage: npm run workload-token');
      }
    },
    SCRIPT_MS,
  );

  it(
    'exits 1 naming the base URL when no service answers there',
    async () => {
      const result = await runScript(
        'workload-token',
        ['--sub', SUBJECT],
        { BASE_URL: 'http://127.0.0.1:1' },
        SCRIPT_MS,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('No local service answers on http://127.0.0.1:1');
    },
    SCRIPT_MS,
  );
});
