import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import {
  createDevWorkloadIssuer,
  DEV_WORKLOAD_AUDIENCE,
  devWorkloadRoute,
  readWorkloadTokenRequest,
} from '../../../local/dev-workload';

const ISSUER = 'http://127.0.0.1:3000/_dev/workload';

describe('the development workload issuer', () => {
  it('keeps its key in the data directory, as the identity provider does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-workload-'));
    try {
      const first = await createDevWorkloadIssuer(ISSUER, dir);
      const second = await createDevWorkloadIssuer(ISSUER, dir);
      expect(second.jwks).toEqual(first.jwks);
      expect((await stat(join(dir, 'dev-workload-key.json'))).mode & 0o777).toBe(0o600);
      const fresh = await createDevWorkloadIssuer(ISSUER);
      expect(fresh.jwks.keys[0]?.kid).not.toBe(first.jwks.keys[0]?.kid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('signs ES256 tokens with its defaults', async () => {
    const issuer = await createDevWorkloadIssuer(ISSUER);
    const token = await issuer.issue({ sub: 'repo:acme/app:ref:refs/heads/main', claims: { run_attempt: 2 } });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: issuer.jwks.keys[0]?.kid });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: ISSUER, aud: DEV_WORKLOAD_AUDIENCE, run_attempt: 2 });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
  });

  it('answers its three routes only', async () => {
    const issuer = await createDevWorkloadIssuer(ISSUER);
    const empty = Buffer.alloc(0);
    const discovery = await devWorkloadRoute(issuer, 'GET', '/_dev/workload/.well-known/openid-configuration', empty);
    expect(JSON.parse(discovery?.body ?? '{}')).toMatchObject({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
    });
    expect(await devWorkloadRoute(issuer, 'GET', '/_dev/workload/token', empty)).toBeUndefined();
    expect(await devWorkloadRoute(issuer, 'POST', '/_dev/workload/other', empty)).toBeUndefined();
  });

  it.each([
    ['not JSON', 'x'],
    ['a list', '[]'],
    ['a number as the subject', '{"sub": 1}'],
    ['an empty audience', '{"sub": "s", "aud": ""}'],
    ['a fractional life', '{"sub": "s", "expiresIn": 1.5}'],
    ['a reserved claim', '{"sub": "s", "claims": {"exp": 1}}'],
    ['a __proto__ claim', '{"sub": "s", "claims": {"__proto__": "x"}}'],
    ['a null claim', '{"sub": "s", "claims": {"a": null}}'],
  ])('reads %s as a mistake', (_, body) => {
    expect(typeof readWorkloadTokenRequest(body)).toBe('string');
  });
});
