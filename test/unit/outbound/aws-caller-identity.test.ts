import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serviceHostOf, signedCallerIdentityRequest } from '@client/aws-sign-in';
import {
  GET_CALLER_IDENTITY_BODY,
  MAX_SIGNED_REQUEST_CHARS,
  parseCallerIdentity,
  type SignedCallerIdentityRequest,
  verifyCallerIdentity,
} from '@lambdas/outbound/aws-caller-identity';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { createDevSts, DEV_STS_PATH, type DevSts, type DevStsKey } from '../../../local/dev-sts';

const SERVICE = 'abc123.execute-api.eu-west-1.amazonaws.com';
const ROLE_CI = 'arn:aws:iam::123456789012:role/ci';
const ROLE_DEPLOY = 'arn:aws:iam::123456789012:role/deploy';

const ciKey: DevStsKey = {
  accessKeyId: 'AKIALOCALCI000000001',
  secretAccessKey: 'ci-secret-ci-secret-ci-secret-ci-secret0',
  arn: 'arn:aws:sts::123456789012:assumed-role/ci/build-7',
};
const aliceKey: DevStsKey = {
  accessKeyId: 'AKIALOCALALICE000001',
  secretAccessKey: 'alice-secret-alice-secret-alice-secret00',
  arn: 'arn:aws:iam::123456789012:user/ops/alice',
};

/** How the loopback STS answers the next requests. */
type Mode =
  | 'sts'
  | 'redirect'
  | 'unavailable'
  | 'garbage'
  | 'throttled'
  | 'limited'
  | 'bad-token'
  | 'at-limit'
  | 'padded'
  | 'bare';

/** The error answers of STS the loopback one gives, by mode: a status and its error code (none: no body). */
const FAILURES = {
  unavailable: [503, 'ServiceUnavailable'],
  throttled: [400, 'Throttling'],
  bare: [500, undefined],
  limited: [400, 'RequestLimitExceeded'],
  'bad-token': [400, 'InvalidClientTokenId'],
} as const;

let server: Server;
let stsUrl: string;
let sts: DevSts;
let mode: Mode = 'sts';
/** Every path the loopback STS was asked for, in order. */
let asked: string[] = [];
/** The headers of the last request it got. */
let lastHeaders: IncomingMessage['headers'] = {};

const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  asked.push(req.url ?? '');
  lastHeaders = req.headers;
  if (req.url !== DEV_STS_PATH) {
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end(identityXml('arn:aws:iam::123456789012:user/redirected'));
    return;
  }
  if (mode === 'redirect') {
    res.writeHead(307, { Location: '/elsewhere' }).end();
    return;
  }
  const failure = FAILURES[mode as keyof typeof FAILURES];
  if (failure) {
    const [status, code] = failure;
    res.writeHead(status).end(code && `<ErrorResponse><Error><Code>${code}</Code></Error></ErrorResponse>`);
    return;
  }
  if (mode === 'at-limit' || mode === 'padded') {
    const xml = identityXml(ciKey.arn);
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end(xml.padEnd(64 * 1024 + (mode === 'padded' ? 1 : 0), ' '));
    return;
  }
  if (mode === 'garbage') {
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<html>hello</html>');
    return;
  }
  const result = await sts.answer({
    method: req.method ?? '',
    headers: req.headers as Record<string, string>,
    body: Buffer.concat(chunks).toString('utf8'),
  });
  res.writeHead(result.statusCode, result.headers).end(result.body);
};

const identityXml = (arn: string, account = '123456789012') =>
  `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>${arn}</Arn>
    <UserId>AIDAEXAMPLE</UserId>
    <Account>${account}</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata>
    <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>
  </ResponseMetadata>
</GetCallerIdentityResponse>`;

beforeAll(async () => {
  sts = await createDevSts({ keys: [ciKey, aliceKey] });
  server = createServer((req, res) => void answer(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  stsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${DEV_STS_PATH}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  mode = 'sts';
  asked = [];
});

const verify = (request: SignedCallerIdentityRequest, principals: readonly string[] = [ROLE_CI]) =>
  verifyCallerIdentity(request, { expectedService: SERVICE, principals, stsUrl });

const signed = (key: DevStsKey = ciKey, service = SERVICE, region?: string) =>
  signedCallerIdentityRequest({ credentials: key, service, region });

/** Signs what the client signer would not: any host, body and headers, for near misses. */
const signRaw = async (options: {
  host?: string;
  body?: string;
  headers?: Record<string, string>;
  key?: DevStsKey;
}): Promise<{ headers: Record<string, string>; body: string }> => {
  const host = options.host ?? 'sts.amazonaws.com';
  const body = options.body ?? GET_CALLER_IDENTITY_BODY;
  const key = options.key ?? ciKey;
  const signer = new SignatureV4({
    credentials: key,
    region: 'us-east-1',
    service: 'sts',
    sha256: Sha256,
    applyChecksum: false,
  });
  const headers = options.headers ?? {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    'x-secrets-service': SERVICE,
  };
  const request = await signer.sign({
    method: 'POST',
    protocol: 'https:',
    hostname: host,
    path: '/',
    query: {},
    headers: { host, ...headers },
    body,
  });
  return { headers: request.headers as Record<string, string>, body };
};

/** The value of one of the request's headers, whatever its case. */
const headerOf = (request: SignedCallerIdentityRequest, name: string): string =>
  Object.entries(request.headers as Record<string, string>).find(
    ([key]) => key.toLowerCase() === name.toLowerCase(),
  )?.[1] ?? '';

/** The request with one header set (or, with `undefined`, removed), whatever its case. */
const withHeader = (request: SignedCallerIdentityRequest, name: string, value: string | undefined) => {
  const headers = Object.fromEntries(
    Object.entries(request.headers as Record<string, string>).filter(
      ([key]) => key.toLowerCase() !== name.toLowerCase(),
    ),
  );
  return { ...request, headers: value === undefined ? headers : { ...headers, [name]: value } };
};

describe('verifyCallerIdentity', () => {
  it('accepts a session of the rule role, as STS answered it', async () => {
    await expect(verify(await signed())).resolves.toEqual({
      accepted: true,
      arn: ciKey.arn,
      account: '123456789012',
      userId: 'AROALOCAL23456789012:build-7',
      principal: ROLE_CI,
    });
    expect(asked).toEqual([DEV_STS_PATH]);
  });

  it("accepts a session of a rule role that has a path, and names the rule's ARN", async () => {
    const withPath = 'arn:aws:iam::123456789012:role/pipelines/ci';
    await expect(verify(await signed(), [ROLE_DEPLOY, withPath])).resolves.toMatchObject({
      accepted: true,
      principal: withPath,
    });
  });

  it('accepts an IAM user named in a rule', async () => {
    await expect(verify(await signed(aliceKey), [aliceKey.arn])).resolves.toMatchObject({
      accepted: true,
      arn: aliceKey.arn,
    });
  });

  it('refuses a session of another role', async () => {
    await expect(verify(await signed(), [ROLE_DEPLOY])).resolves.toEqual({ accepted: false, reason: 'principal' });
    expect(asked).toHaveLength(1);
  });

  it('refuses without asking STS when no rule names anyone', async () => {
    await expect(verify(await signed(), [])).resolves.toEqual({ accepted: false, reason: 'principal' });
    expect(asked).toEqual([]);
  });

  it('refuses a signature STS does not accept (403)', async () => {
    const wrongSecret = await signed({ ...ciKey, secretAccessKey: 'not-the-secret' });
    await expect(verify(wrongSecret)).resolves.toEqual({ accepted: false, reason: 'signature' });
    const request = await signed();
    const authorization = request.headers.Authorization ?? '';
    const flipped = authorization.replace(
      /Signature=(.)/,
      (_all, first: string) => `Signature=${first === '0' ? '1' : '0'}`,
    );
    await expect(verify(withHeader(request, 'Authorization', flipped))).resolves.toEqual({
      accepted: false,
      reason: 'signature',
    });
    expect(asked).toHaveLength(2);
  });

  it('refuses a request without the service header, without asking STS', async () => {
    const unsignedFor = await signRaw({ headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await expect(verify(unsignedFor)).resolves.toEqual({ accepted: false, reason: 'service-header' });
    const removed = withHeader(await signed(), 'X-Secrets-Service', undefined);
    await expect(verify(removed)).resolves.toEqual({ accepted: false, reason: 'service-header' });
    expect(asked).toEqual([]);
  });

  it('refuses a service header that is there but not signed, without asking STS', async () => {
    const request = await signRaw({ headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await expect(verify(withHeader(request, 'X-Secrets-Service', SERVICE))).resolves.toEqual({
      accepted: false,
      reason: 'service-header',
    });
    expect(asked).toEqual([]);
  });

  it('refuses a request signed for another service, without asking STS', async () => {
    await expect(verify(await signed(ciKey, 'other.example.com'))).resolves.toEqual({
      accepted: false,
      reason: 'service-header',
    });
    await expect(verify(await signed(ciKey, `${SERVICE}.evil.example`))).resolves.toEqual({
      accepted: false,
      reason: 'service-header',
    });
    expect(asked).toEqual([]);
  });

  it('compares the service host without regard to case', async () => {
    await expect(verify(await signed(ciKey, SERVICE.toUpperCase()))).resolves.toMatchObject({ accepted: true });
  });

  it.each([
    ['another action', 'Action=AssumeRole&Version=2011-06-15&RoleArn=arn:aws:iam::123456789012:role/admin'],
    ['another action and the version alone', 'Action=AssumeRole&Version=2011-06-15'],
    ['the version under another name', 'Action=GetCallerIdentity&Release=2011-06-15'],
    ['the action under another name', 'Operation=GetCallerIdentity&Version=2011-06-15'],
    ['a third parameter', `${GET_CALLER_IDENTITY_BODY}&RoleArn=x`],
    ['the action twice', `${GET_CALLER_IDENTITY_BODY}&Action=GetCallerIdentity`],
    ['another version', 'Action=GetCallerIdentity&Version=2010-01-01'],
    ['no version', 'Action=GetCallerIdentity'],
    ['JSON', '{"Action":"GetCallerIdentity","Version":"2011-06-15"}'],
  ])('refuses a body with %s, without asking STS', async (_what, body) => {
    await expect(verify(await signRaw({ body }))).resolves.toEqual({
      accepted: false,
      reason: 'not-get-caller-identity',
    });
    expect(asked).toEqual([]);
  });

  it('accepts a body hash that is this body’s', async () => {
    const request = await signed();
    const hash = createHash('sha256')
      .update(request.body as string)
      .digest('hex');
    await expect(verify(withHeader(request, 'X-Amz-Content-Sha256', hash))).resolves.toMatchObject({ accepted: true });
  });

  it('accepts 32 headers, and a form content type with no space before its charset', async () => {
    const request = await signRaw({
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', 'x-secrets-service': SERVICE },
    });
    const headers = request.headers;
    const padding = Array.from({ length: 32 - Object.keys(headers).length }, (_, index) => [`X-Pad-${index}`, 'p']);
    await expect(
      verify({ ...request, headers: { ...headers, ...Object.fromEntries(padding) } }),
    ).resolves.toMatchObject({ accepted: true });
  });

  it(`accepts a request exactly ${MAX_SIGNED_REQUEST_CHARS} characters long, its body hash signed, its commas unspaced`, async () => {
    const hash = createHash('sha256').update(GET_CALLER_IDENTITY_BODY).digest('hex');
    const request = await signRaw({
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-secrets-service': SERVICE,
        'x-amz-content-sha256': hash,
      },
    });
    const headers = { ...request.headers, Authorization: headerOf(request, 'Authorization').replaceAll(', ', ',') };
    const { authorization: _lower, ...unique } = headers as Record<string, string>;
    const size = Object.entries(unique).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    const padding = 'p'.repeat(MAX_SIGNED_REQUEST_CHARS - request.body.length - size - 'X-Padding'.length);
    await expect(verify({ ...request, headers: { ...unique, 'X-Padding': padding } })).resolves.toMatchObject({
      accepted: true,
    });
  });

  it('accepts the two parameters in either order', async () => {
    const request = await signRaw({ body: 'Version=2011-06-15&Action=GetCallerIdentity' });
    await expect(verify(request)).resolves.toMatchObject({ accepted: true });
  });

  it.each([
    'evil.example.com',
    'sts.amazonaws.com.evil.example',
    'sts.amazonaws.com:8443',
    'sts.eu-west-1.amazonaws.com.evil.example',
    'sts.amazonaws.com.cn',
    'sts.localhost',
    '127.0.0.1',
    'sts.eu_west_1.amazonaws.com',
    'STS.AMAZONAWS.COM',
    'iam.amazonaws.com',
  ])('refuses a request signed for host %s, without asking STS', async (host) => {
    await expect(verify(await signRaw({ host }))).resolves.toEqual({ accepted: false, reason: 'sts-host' });
    expect(asked).toEqual([]);
  });

  it.each([
    'sts.amazonaws.com',
    'sts.us-east-1.amazonaws.com',
    'sts.eu-central-2.amazonaws.com',
    'sts.us-gov-west-1.amazonaws.com',
    'sts.cn-north-1.amazonaws.com.cn',
  ])('sends a request signed for %s on', async (host) => {
    await expect(verify(await signRaw({ host }))).resolves.toMatchObject({ accepted: true });
  });

  it('refuses a redirect from STS and does not follow it', async () => {
    mode = 'redirect';
    await expect(verify(await signed())).resolves.toEqual({ accepted: false, reason: 'sts-unavailable' });
    expect(asked).toEqual([DEV_STS_PATH]);
  });

  it("reads an answer of STS exactly 64 KiB long (one byte more is refused, as 'padded' shows)", async () => {
    mode = 'at-limit';
    await expect(verify(await signed())).resolves.toMatchObject({ accepted: true, arn: ciKey.arn });
  });

  it('refuses a token STS does not know (400) as a signature it does not accept', async () => {
    mode = 'bad-token';
    await expect(verify(await signed())).resolves.toEqual({ accepted: false, reason: 'signature' });
  });

  it('accepts a service header with white space around the host it names', async () => {
    const request = await signRaw({
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-secrets-service': ` ${SERVICE} ` },
    });
    await expect(verify(request)).resolves.toMatchObject({ accepted: true });
  });

  it('will not judge a request without the service host it expects', async () => {
    await expect(
      verifyCallerIdentity(await signed(), { expectedService: '', principals: [ROLE_CI], stsUrl }),
    ).rejects.toThrow('verifyCallerIdentity needs the expected service host');
    expect(asked).toEqual([]);
  });

  it('refuses when STS fails, throttles, answers what it never answers, or is not there', async () => {
    for (const failing of ['unavailable', 'bare', 'throttled', 'limited', 'garbage', 'padded'] as const) {
      mode = failing;
      await expect(verify(await signed())).resolves.toEqual({ accepted: false, reason: 'sts-unavailable' });
    }
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await expect(
      verifyCallerIdentity(await signed(), {
        expectedService: SERVICE,
        principals: [ROLE_CI],
        stsUrl: `http://127.0.0.1:${port}/`,
      }),
    ).resolves.toEqual({ accepted: false, reason: 'sts-unavailable' });
  });

  describe('refuses a request it cannot read, without asking STS', () => {
    it.each<[string, (request: SignedCallerIdentityRequest) => unknown]>([
      ['headers as an array', (request) => ({ ...request, headers: [request.headers] })],
      ['no headers', (request) => ({ ...request, headers: null })],
      ['a body that is no string', (request) => ({ ...request, body: { Action: 'GetCallerIdentity' } })],
      ['a header value as an array', (request) => withHeader(request, 'X-Amz-Date', ['20260101T000000Z'] as never)],
      ['a header value as an object', (request) => withHeader(request, 'Content-Type', {} as never)],
      ['a header value with a line break', (request) => withHeader(request, 'X-Amz-Date', '20260101T000000Z\r\nX: y')],
      [
        'one header twice, in two cases',
        (request) => ({ ...request, headers: { ...(request.headers as object), 'x-amz-date': '20260101T000000Z' } }),
      ],
      [
        'headers over the size bound',
        (request) => withHeader(request, 'X-Padding', 'a'.repeat(MAX_SIGNED_REQUEST_CHARS)),
      ],
      ['no Authorization', (request) => withHeader(request, 'Authorization', undefined)],
      ['another signing algorithm', (request) => withHeader(request, 'Authorization', 'AWS4-ECDSA-P256-SHA256 x')],
      [
        'a scope of another service',
        (request) => {
          const authorization = (request.headers as Record<string, string>).Authorization ?? '';
          return withHeader(request, 'Authorization', authorization.replace('/sts/', '/s3/'));
        },
      ],
      ['no X-Amz-Date', (request) => withHeader(request, 'X-Amz-Date', undefined)],
      ['a JSON content type', (request) => withHeader(request, 'Content-Type', 'application/x-amz-json-1.1')],
      ['a body hash of another body', (request) => withHeader(request, 'X-Amz-Content-Sha256', '0'.repeat(64))],
      ['a security token with a line break', (request) => withHeader(request, 'X-Amz-Security-Token', 't\r\nX: y')],
      ['a header name with a colon', (request) => withHeader(request, 'X:Y', 'y')],
      ['text before X-Amz-Date', (request) => withHeader(request, 'X-Amz-Date', `+${headerOf(request, 'X-Amz-Date')}`)],
      ['text after X-Amz-Date', (request) => withHeader(request, 'X-Amz-Date', `${headerOf(request, 'X-Amz-Date')}+`)],
      [
        'text before the content type',
        (request) => withHeader(request, 'Content-Type', 'text/plain, application/x-www-form-urlencoded'),
      ],
      [
        'text after the content type',
        (request) => withHeader(request, 'Content-Type', 'application/x-www-form-urlencoded, text/plain'),
      ],
      [
        'text before Authorization',
        (request) => withHeader(request, 'Authorization', `x${headerOf(request, 'Authorization')}`),
      ],
      [
        'text after Authorization',
        (request) => withHeader(request, 'Authorization', `${headerOf(request, 'Authorization')} x`),
      ],
      [
        'more than 32 headers',
        (request) => {
          const headers = request.headers as Record<string, string>;
          const padding = Array.from({ length: 33 - Object.keys(headers).length }, (_, index) => [
            `X-Pad-${index}`,
            'p',
          ]);
          return { ...request, headers: { ...headers, ...Object.fromEntries(padding) } };
        },
      ],
      [
        'a signature that leaves out the host',
        (request) => {
          const authorization = (request.headers as Record<string, string>).Authorization ?? '';
          const without = authorization.replace(
            /SignedHeaders=([^,]*)/,
            (_all, list: string) =>
              `SignedHeaders=${list
                .split(';')
                .filter((name) => name !== 'host')
                .join(';')}`,
          );
          return withHeader(request, 'Authorization', without);
        },
      ],
    ])('%s', async (_what, change) => {
      const request = change(await signed()) as SignedCallerIdentityRequest;
      await expect(verify(request)).resolves.toEqual({ accepted: false, reason: 'malformed' });
      expect(asked).toEqual([]);
    });

    it('a signed header it would not send on', async () => {
      const request = await signRaw({
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-secrets-service': SERVICE,
          'x-amz-target': 'AWSSecurityTokenServiceV20110615.AssumeRole',
        },
      });
      await expect(verify(request)).resolves.toEqual({ accepted: false, reason: 'malformed' });
      expect(asked).toEqual([]);
    });
  });

  it('sends only the signed request to https://<its STS host>/, following no redirect, dropping other headers', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(identityXml(ciKey.arn), { status: 200 });
    }) as unknown as typeof fetch;
    const request = withHeader(await signed(ciKey, SERVICE, 'eu-west-1'), 'X-Forwarded-For', '10.0.0.1');
    await expect(
      verifyCallerIdentity(request, { expectedService: SERVICE, principals: [ROLE_CI], fetch: fakeFetch }),
    ).resolves.toMatchObject({ accepted: true });
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [{ url: string; init: RequestInit }];
    expect(url).toBe('https://sts.eu-west-1.amazonaws.com/');
    expect(init).toMatchObject({ method: 'POST', redirect: 'error', body: GET_CALLER_IDENTITY_BODY });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(Object.keys(init.headers as object).sort()).toEqual([
      'authorization',
      'content-type',
      'x-amz-date',
      'x-secrets-service',
    ]);
  });

  it('hands the stand-in the host the request was signed for', async () => {
    await verify(await signed(ciKey, SERVICE, 'eu-west-1'));
    expect(lastHeaders['x-forwarded-host']).toBe('sts.eu-west-1.amazonaws.com');
    expect(lastHeaders['x-forwarded-for']).toBeUndefined();
  });
});

describe('round trip: the client signer, the STS stand-in, the verifier', () => {
  it('signs in with the global and a regional STS host', async () => {
    for (const region of [undefined, 'eu-west-1', 'us-gov-west-1', 'cn-north-1']) {
      const request = await signedCallerIdentityRequest({
        credentials: ciKey,
        region,
        service: serviceHostOf(`https://${SERVICE}/api/v1`),
      });
      await expect(verify(request)).resolves.toMatchObject({ accepted: true, arn: ciKey.arn });
    }
  });

  it('signs a session token when the credentials have one (which the stand-in, holding no sessions, refuses)', async () => {
    const request = await signedCallerIdentityRequest({
      credentials: { ...ciKey, sessionToken: 'token' },
      service: SERVICE,
    });
    expect(request.headers['X-Amz-Security-Token']).toBe('token');
    expect(request.headers.Authorization).toContain('x-amz-security-token');
    await expect(verify(request)).resolves.toEqual({ accepted: false, reason: 'signature' });
  });

  it('refuses an unknown region name before signing', async () => {
    await expect(signedCallerIdentityRequest({ credentials: ciKey, region: 'mars', service: SERVICE })).rejects.toThrow(
      'Not an AWS region',
    );
  });
});

describe('parseCallerIdentity', () => {
  it("reads STS's answer, its elements in any order", () => {
    expect(parseCallerIdentity(identityXml('arn:aws:iam::123456789012:user/Alice'))).toEqual({
      arn: 'arn:aws:iam::123456789012:user/Alice',
      userId: 'AIDAEXAMPLE',
      account: '123456789012',
    });
    const reordered =
      '<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account>' +
      '<UserId>AIDA</UserId><Arn>arn:aws:iam::123456789012:user/a</Arn></GetCallerIdentityResult></GetCallerIdentityResponse>';
    expect(parseCallerIdentity(reordered)?.arn).toBe('arn:aws:iam::123456789012:user/a');
    const spaced = identityXml(' arn:aws:iam::123456789012:user/a\n').replace('AIDAEXAMPLE', ' AIDA ');
    expect(parseCallerIdentity(spaced)).toEqual({
      arn: 'arn:aws:iam::123456789012:user/a',
      userId: 'AIDA',
      account: '123456789012',
    });
  });

  it.each([
    ['an account other than the ARN', identityXml('arn:aws:iam::123456789012:user/a', '210987654321')],
    ['an ARN it cannot read', identityXml('arn:aws:s3:::bucket')],
    ['an entity', identityXml('arn:aws:iam::123456789012:user/a&amp;b')],
    ['no result', '<GetCallerIdentityResponse></GetCallerIdentityResponse>'],
    [
      'an element twice',
      '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/a</Arn>' +
        '<Arn>arn:aws:iam::123456789012:user/b</Arn><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
    ],
    ['an error', '<ErrorResponse><Error><Code>AccessDenied</Code></Error></ErrorResponse>'],
    [
      'an element twice, the other two there',
      identityXml('arn:aws:iam::123456789012:user/a').replace(
        '<UserId>',
        '<Arn>arn:aws:iam::123456789012:user/b</Arn><UserId>',
      ),
    ],
    ['an empty user id', identityXml('arn:aws:iam::123456789012:user/a').replace('AIDAEXAMPLE', ' ')],
    ['an empty ARN', identityXml('')],
    ['no account', identityXml('arn:aws:iam::123456789012:user/a', '')],
    [
      'a result outside GetCallerIdentityResponse',
      identityXml('arn:aws:iam::123456789012:user/a').replaceAll('GetCallerIdentityResponse', 'AssumeRoleResponse'),
    ],
  ])('reads nothing from an answer with %s', (_what, xml) => {
    expect(parseCallerIdentity(xml)).toBeUndefined();
  });
});
