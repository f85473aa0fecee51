import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAwsArn } from '@lambdas/domain/aws-principals';
import { clock } from '@lambdas/domain/clock';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/*
 * A stand-in for AWS STS under `npm start`, answering `sts:GetCallerIdentity` only, so AWS sign-in can be
 * tried without AWS: requests signed with a local key pair are answered with the ARN configured for that
 * key. The signature is checked as STS checks it, by computing it again over the request as received
 * (method, path, the headers it names as signed, the body) and comparing. The service forwards the
 * request here with the host it was signed for in `X-Forwarded-Host` (fetch sets `Host` from the URL) and
 * STS's path `/` signed; a request without that header comes directly (an SDK pointed at this URL),
 * signed for the `Host` and path as sent. Never deployed.
 */

/** Path under the base URL where the STS stand-in answers. */
export const DEV_STS_PATH = '/_dev/sts';
/** Whom the stand-in's key signs in as unless told otherwise: a role session, as in CI. */
export const DEV_STS_DEFAULT_ARN = 'arn:aws:sts::000000000000:assumed-role/local-ci/local-session';
/** How far a request's `X-Amz-Date` may be from now, as STS allows. */
export const DEV_STS_SKEW_MS = 15 * 60 * 1000;
const KEY_FILE = 'dev-sts-key.json';

/** A key pair the stand-in knows, and whom it signs in as. */
export interface DevStsKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The ARN answered for it, e.g. `arn:aws:sts::000000000000:assumed-role/local-ci/local-session`. */
  readonly arn: string;
}

/** A request as the local gateway reads it: header names in any case. */
export interface DevStsRequest {
  readonly method: string;
  /** The path as received; signed over as is when the request comes directly (default `/`). */
  readonly path?: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface DevStsAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface DevSts {
  /** The first key: the one `npm start` prints. */
  readonly key: DevStsKey;
  /** Answers one request made to `DEV_STS_PATH`, as STS would. */
  answer(request: DevStsRequest): Promise<DevStsAnswer>;
}

const XML_HEADERS = { 'Content-Type': 'text/xml' };
const NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';

const error = (statusCode: number, code: string, message: string): DevStsAnswer => ({
  statusCode,
  headers: XML_HEADERS,
  body:
    `<ErrorResponse xmlns="${NAMESPACE}">\n  <Error>\n    <Type>Sender</Type>\n    <Code>${code}</Code>\n` +
    `    <Message>${message}</Message>\n  </Error>\n  <RequestId>${randomRequestId()}</RequestId>\n</ErrorResponse>\n`,
});

const mismatch = (): DevStsAnswer =>
  error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');

const randomRequestId = (): string => {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const identity = (key: DevStsKey): DevStsAnswer => {
  const principal = parseAwsArn(key.arn);
  const account = principal?.account ?? '000000000000';
  // STS answers a role session's user id as `<role id>:<session>`, a user's as its user id.
  const userId =
    principal?.kind === 'assumed-role'
      ? `AROALOCAL${account.slice(-11)}:${principal.session}`
      : `AIDALOCAL${account.slice(-11)}`;
  return {
    statusCode: 200,
    headers: XML_HEADERS,
    body:
      `<GetCallerIdentityResponse xmlns="${NAMESPACE}">\n  <GetCallerIdentityResult>\n` +
      `    <Arn>${key.arn}</Arn>\n    <UserId>${userId}</UserId>\n    <Account>${account}</Account>\n` +
      `  </GetCallerIdentityResult>\n  <ResponseMetadata>\n    <RequestId>${randomRequestId()}</RequestId>\n` +
      `  </ResponseMetadata>\n</GetCallerIdentityResponse>\n`,
  };
};

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([a-z0-9-]+)\/sts\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const parseAmzDate = (value: string): Date | undefined => {
  const match = AMZ_DATE.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** A random key pair shaped like AWS's: a 20-character access key id, a 40-character secret. */
const newKey = (arn: string): DevStsKey => ({
  accessKeyId: `AKIALOCAL${randomBytes(16).toString('hex').toUpperCase().slice(0, 11)}`,
  secretAccessKey: randomBytes(30).toString('base64'),
  arn,
});

const loadKey = async (dataDir: string | undefined): Promise<DevStsKey> => {
  const file = dataDir ? join(dataDir, KEY_FILE) : undefined;
  if (file) {
    const stored = await readFile(file, 'utf8').catch(() => undefined);
    if (stored) return JSON.parse(stored) as DevStsKey;
  }
  const key = newKey(DEV_STS_DEFAULT_ARN);
  if (file) await writeFile(file, JSON.stringify(key), { mode: 0o600 });
  return key;
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export interface DevStsOptions {
  /** Keeps the key pair between runs (`dev-sts-key.json`); without, a new one per start. */
  readonly dataDir?: string;
  /** The keys it knows instead (tests); the first is `key`. */
  readonly keys?: readonly DevStsKey[];
}

/** Creates the STS stand-in with its key pair. */
export const createDevSts = async (options: DevStsOptions = {}): Promise<DevSts> => {
  const keys = options.keys?.length ? options.keys : [await loadKey(options.dataDir)];
  const [first] = keys as [DevStsKey];
  const byId = new Map(keys.map((key) => [key.accessKeyId, key]));

  const answer = async (request: DevStsRequest): Promise<DevStsAnswer> => {
    const headers = new Map<string, string>();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name.toLowerCase(), value);
    }
    const params = new URLSearchParams(request.body);
    const action = params.get('Action');
    if (request.method !== 'POST' || action !== 'GetCallerIdentity' || params.get('Version') !== '2011-06-15') {
      return error(
        400,
        'InvalidAction',
        `Could not find operation ${action ?? ''} for version ${params.get('Version') ?? ''}`,
      );
    }
    const authorization = headers.get('authorization');
    if (!authorization) return error(403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
    const parsed = AUTHORIZATION.exec(authorization);
    if (!parsed) return error(400, 'IncompleteSignature', 'The request signature does not conform to AWS standards.');
    const [, accessKeyId = '', scopeDate, region = '', signedList = '', signature = ''] = parsed;
    const key = byId.get(accessKeyId);
    // The stand-in's keys are long-term keys: a session token belongs to no session it issued.
    if (!key || headers.has('x-amz-security-token')) {
      return error(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    }
    const amzDate = headers.get('x-amz-date') ?? '';
    const signingDate = parseAmzDate(amzDate);
    if (!signingDate || amzDate.slice(0, 8) !== scopeDate) {
      return mismatch();
    }
    const now = clock.now();
    if (Math.abs(now.getTime() - signingDate.getTime()) > DEV_STS_SKEW_MS) {
      const bound = new Date(now.getTime() - DEV_STS_SKEW_MS).toISOString().replace(/[-:]|\.\d{3}/g, '');
      return error(
        403,
        'SignatureDoesNotMatch',
        `Signature expired: ${amzDate} is now earlier than ${bound} (now - 15 min.)`,
      );
    }
    const forwardedHost = headers.get('x-forwarded-host');
    const signedNames = signedList.split(';');
    const signedHeaders: Record<string, string> = {};
    for (const name of signedNames) {
      const value = name === 'host' ? (forwardedHost ?? headers.get('host')) : headers.get(name);
      if (value === undefined) {
        return mismatch();
      }
      signedHeaders[name] = value;
    }
    // applyChecksum off: the stand-in signs exactly the headers the request names, adding none.
    const signer = new SignatureV4({ credentials: key, region, service: 'sts', sha256: Sha256, applyChecksum: false });
    const expected = await signer.sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: signedHeaders.host ?? '',
        path: forwardedHost === undefined ? (request.path ?? '/') : '/',
        query: {},
        headers: signedHeaders,
        body: request.body,
      },
      { signingDate, signableHeaders: new Set(signedNames) },
    );
    const computed = AUTHORIZATION.exec(expected.headers.authorization ?? '');
    if (!computed || !sameText(computed[5] ?? '', signature)) {
      return mismatch();
    }
    return identity(key);
  };

  return { key: first, answer };
};
