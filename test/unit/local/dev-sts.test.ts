import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedCallerIdentityRequest } from '@client/aws-sign-in';
import { setClock } from '@lambdas/domain/clock';
import { parseCallerIdentity } from '@lambdas/outbound/aws-caller-identity';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { createDevSts, DEV_STS_DEFAULT_ARN, DEV_STS_PATH, type DevSts, type DevStsKey } from '../../../local/dev-sts';

const key: DevStsKey = {
  accessKeyId: 'AKIALOCALTEST0000001',
  secretAccessKey: 'test-secret-test-secret-test-secret-test',
  arn: 'arn:aws:iam::111122223333:user/ci-bot',
};

const post = (sts: DevSts, request: { headers: Record<string, string>; body: string }) =>
  sts.answer({ method: 'POST', headers: request.headers, body: request.body });

const codeOf = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

afterEach(() => setClock());

describe('the STS stand-in', () => {
  it('answers GetCallerIdentity signed for the Host as sent, as STS answers it', async () => {
    const sts = await createDevSts({ keys: [key] });
    const answer = await post(sts, await signedCallerIdentityRequest({ credentials: key, service: 'localhost:3000' }));
    expect(answer.statusCode).toBe(200);
    expect(parseCallerIdentity(answer.body)).toEqual({
      arn: key.arn,
      userId: 'AIDALOCAL11122223333',
      account: '111122223333',
    });
  });

  it('verifies against X-Forwarded-Host when the service forwards the request to it', async () => {
    const sts = await createDevSts({ keys: [key] });
    const request = await signedCallerIdentityRequest({ credentials: key, service: 'localhost:3000' });
    const forwarded = { ...request.headers, Host: '127.0.0.1:3000', 'X-Forwarded-Host': 'sts.amazonaws.com' };
    expect((await post(sts, { ...request, headers: forwarded })).statusCode).toBe(200);
    const notForwarded = { ...request.headers, Host: '127.0.0.1:3000' };
    expect(codeOf((await post(sts, { ...request, headers: notForwarded })).body)).toBe('SignatureDoesNotMatch');
  });

  it('answers a request signed for its own URL, as an SDK pointed at it sends', async () => {
    const sts = await createDevSts({ keys: [key] });
    const signer = new SignatureV4({ credentials: key, region: 'us-east-1', service: 'sts', sha256: Sha256 });
    const body = 'Action=GetCallerIdentity&Version=2011-06-15';
    const request = {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: DEV_STS_PATH,
      query: {},
      headers: { host: '127.0.0.1:3000', 'content-type': 'application/x-www-form-urlencoded' },
      body,
    };
    const signed = await signer.sign(request);
    const headers = signed.headers as Record<string, string>;
    expect((await sts.answer({ method: 'POST', path: DEV_STS_PATH, headers, body })).statusCode).toBe(200);
    expect((await sts.answer({ method: 'POST', path: '/', headers, body })).statusCode).toBe(403);
  });

  it.each<[string, (headers: Record<string, string>) => Record<string, string>, number, string]>([
    [
      'another signed value',
      (headers) => ({ ...headers, 'X-Secrets-Service': 'other.example.com' }),
      403,
      'SignatureDoesNotMatch',
    ],
    ['a signed header missing', ({ 'Content-Type': _, ...headers }) => headers, 403, 'SignatureDoesNotMatch'],
    [
      'a session token it never issued',
      (headers) => ({ ...headers, 'X-Amz-Security-Token': 't' }),
      403,
      'InvalidClientTokenId',
    ],
    [
      'an unknown access key',
      (headers) => ({
        ...headers,
        Authorization: (headers.Authorization ?? '').replace(key.accessKeyId, 'AKIALOCALOTHER000001'),
      }),
      403,
      'InvalidClientTokenId',
    ],
    ['no signature', ({ Authorization: _, ...headers }) => headers, 403, 'MissingAuthenticationToken'],
    [
      'a signature it cannot read',
      (headers) => ({ ...headers, Authorization: 'AWS4-HMAC-SHA256 nonsense' }),
      400,
      'IncompleteSignature',
    ],
  ])('refuses %s', async (_what, change, status, code) => {
    const sts = await createDevSts({ keys: [key] });
    const request = await signedCallerIdentityRequest({ credentials: key, service: 'localhost:3000' });
    const answer = await post(sts, { ...request, headers: change(request.headers) });
    expect(answer.statusCode).toBe(status);
    expect(codeOf(answer.body)).toBe(code);
  });

  it('refuses another action', async () => {
    const sts = await createDevSts({ keys: [key] });
    const request = await signedCallerIdentityRequest({ credentials: key, service: 'localhost:3000' });
    const answer = await post(sts, { ...request, body: 'Action=AssumeRole&Version=2011-06-15' });
    expect([answer.statusCode, codeOf(answer.body)]).toEqual([400, 'InvalidAction']);
  });

  it('refuses a request signed more than 15 minutes from now, as STS does', async () => {
    const sts = await createDevSts({ keys: [key] });
    const signedAt = new Date('2026-03-01T12:00:00Z');
    const request = await signedCallerIdentityRequest({
      credentials: key,
      service: 'localhost:3000',
      signingDate: signedAt,
    });
    setClock({ now: () => new Date(signedAt.getTime() + 14 * 60_000) });
    expect((await post(sts, request)).statusCode).toBe(200);
    setClock({ now: () => new Date(signedAt.getTime() + 16 * 60_000) });
    const late = await post(sts, request);
    expect([late.statusCode, codeOf(late.body)]).toEqual([403, 'SignatureDoesNotMatch']);
    expect(late.body).toContain('Signature expired');
    setClock({ now: () => new Date(signedAt.getTime() - 16 * 60_000) });
    expect((await post(sts, request)).statusCode).toBe(403);
  });

  it('makes a key pair shaped like AWS keys, kept in the data directory between starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dev-sts-'));
    try {
      const first = await createDevSts({ dataDir });
      expect(first.key.accessKeyId).toMatch(/^AKIALOCAL[0-9A-F]{11}$/);
      expect(first.key.secretAccessKey).toHaveLength(40);
      expect(first.key.arn).toBe(DEV_STS_DEFAULT_ARN);
      expect((await createDevSts({ dataDir })).key).toEqual(first.key);
      expect((await createDevSts()).key.accessKeyId).not.toBe(first.key.accessKeyId);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
