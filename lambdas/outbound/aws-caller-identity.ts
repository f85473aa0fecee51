import { createHash } from 'node:crypto';
import { matchingPrincipal, parseAwsArn } from '@lambdas/domain/aws-principals';

/*
 * AWS IAM sign-in, as Vault's and Infisical's: the caller signs an `sts:GetCallerIdentity` request with
 * its AWS credentials (SigV4) and hands it over instead of sending it; the service sends it to STS, which
 * answers whose credentials signed it. The caller cannot choose where it goes: the service POSTs to
 * `https://<Host>/`, the Host one of STS's own names. The request must carry a signed
 * `X-Secrets-Service` header naming this service's API host, so a request signed for another service
 * (or another deployment of this one) is refused here, and one signed for this one is refused by any
 * other that checks its own name. Every check on the request runs before the network is touched.
 */

/** Why a sign-in was refused: for the log and the audit event; the caller gets one generic 401. */
export type AwsSignInRefusal =
  | 'malformed'
  | 'not-get-caller-identity'
  | 'service-header'
  | 'sts-host'
  | 'signature'
  | 'sts-unavailable'
  | 'principal';

/** A signed `sts:GetCallerIdentity` request as the caller sends it, not yet trusted in any part. */
export interface SignedCallerIdentityRequest {
  readonly headers: unknown;
  readonly body: unknown;
}

export interface VerifyCallerIdentityOptions {
  /** This service's API host, which the signed `X-Secrets-Service` header must name (API Gateway's `domainName`). */
  readonly expectedService: string;
  /** Every principal ARN of the service account's `aws` trust rules; none admits no one. */
  readonly principals: readonly string[];
  /** Where STS is instead of its own host: the local runtime's stand-in only (`SIGN_IN_STS_URL`). */
  readonly stsUrl?: string;
  /** For tests: the fetch that reaches STS. */
  readonly fetch?: typeof fetch;
}

export type CallerIdentityVerdict =
  | {
      readonly accepted: true;
      /** The ARN STS answered (a role session's, `arn:aws:sts::…:assumed-role/NAME/SESSION`). */
      readonly arn: string;
      readonly account: string;
      readonly userId: string;
      /** The rule ARN that admitted it. */
      readonly principal: string;
    }
  | { readonly accepted: false; readonly reason: AwsSignInRefusal };

/** The header that names the service a request was signed for. */
export const SERVICE_HEADER = 'X-Secrets-Service';
/** The environment variable through which the local runtime points the sign-in at its STS stand-in. */
export const STS_URL_ENV = 'SIGN_IN_STS_URL';
/** The only body accepted: `sts:GetCallerIdentity` in the query protocol's form encoding. */
export const GET_CALLER_IDENTITY_BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
/** The most the headers (names and values) and body together may weigh, in characters. */
export const MAX_SIGNED_REQUEST_CHARS = 16 * 1024;
/** How long STS has to answer, body included. */
export const STS_TIMEOUT_MS = 5_000;
/** The most of STS's answer read; its answer is well under 1 KB. */
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_HEADERS = 32;

/** Headers sent on to STS; a header outside these may travel along unsigned, and is dropped. */
const FORWARDED = [
  'authorization',
  'content-type',
  'x-amz-content-sha256',
  'x-amz-date',
  'x-amz-security-token',
  'x-secrets-service',
];
/** Headers that may be signed: the forwarded ones and `host`, which the URL carries. */
const SIGNABLE = new Set([...FORWARDED, 'host']);
/** Headers whose signature STS or this check needs. */
const MUST_SIGN = ['host', 'x-amz-date', SERVICE_HEADER.toLowerCase()];

const REGION = '[a-z]{2}(?:-gov)?-[a-z]+-\\d';
/** STS's global host and its regional hosts (China's under `amazonaws.com.cn`); lower case, no port. */
const STS_HOST = new RegExp(`^sts\\.(?:${REGION}\\.)?amazonaws\\.com$|^sts\\.cn-[a-z]+-\\d\\.amazonaws\\.com\\.cn$`);

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=[A-Za-z0-9]{16,128}\/\d{8}\/[a-z0-9-]{1,32}\/sts\/aws4_request, ?SignedHeaders=([a-z0-9-]+(?:;[a-z0-9-]+)*), ?Signature=[0-9a-f]{64}$/;
const AMZ_DATE = /^\d{8}T\d{6}Z$/;
const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded(?:; ?charset=utf-8)?$/i;
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** Visible ASCII, spaces and tabs: no line break, no NUL, nothing a header cannot carry as is. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

const refused = (reason: AwsSignInRefusal): CallerIdentityVerdict => ({ accepted: false, reason });

/** The headers by lower-case name, or `undefined` when they are not an object of string values, one per name. */
const readHeaders = (headers: unknown): Map<string, string> | undefined => {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined;
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS) return undefined;
  const read = new Map<string, string>();
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || !HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) return undefined;
    const key = name.toLowerCase();
    if (read.has(key)) return undefined;
    read.set(key, value);
  }
  return read;
};

const isGetCallerIdentity = (body: string): boolean => {
  const params = [...new URLSearchParams(body)];
  return (
    params.length === 2 &&
    params.some(([key, value]) => key === 'Action' && value === 'GetCallerIdentity') &&
    params.some(([key, value]) => key === 'Version' && value === '2011-06-15')
  );
};

type Checked =
  | { readonly ok: false; readonly reason: AwsSignInRefusal }
  | { readonly ok: true; readonly host: string; readonly forward: Record<string, string>; readonly body: string };

/** Every check on the request itself; none touches the network. */
const checkRequest = (request: SignedCallerIdentityRequest, expectedService: string): Checked => {
  const fail = (reason: AwsSignInRefusal): Checked => ({ ok: false, reason });
  const { body } = request;
  const headers = readHeaders(request.headers);
  if (!headers || typeof body !== 'string') return fail('malformed');
  let size = body.length;
  for (const [name, value] of headers) size += name.length + value.length;
  if (size > MAX_SIGNED_REQUEST_CHARS) return fail('malformed');

  if (!isGetCallerIdentity(body)) return fail('not-get-caller-identity');
  if (!FORM_CONTENT_TYPE.test(headers.get('content-type') ?? '')) return fail('malformed');
  // The SDKs' signers may send the body's hash (never `UNSIGNED-PAYLOAD` here): it must be this body's.
  const bodyHash = headers.get('x-amz-content-sha256');
  if (bodyHash !== undefined && bodyHash !== createHash('sha256').update(body).digest('hex')) return fail('malformed');

  const signedList = AUTHORIZATION.exec(headers.get('authorization') ?? '')?.[1];
  if (!signedList || !AMZ_DATE.test(headers.get('x-amz-date') ?? '')) return fail('malformed');
  const signed = signedList.split(';');
  const service = headers.get(SERVICE_HEADER.toLowerCase());
  if (
    service === undefined ||
    !signed.includes(SERVICE_HEADER.toLowerCase()) ||
    service.trim().toLowerCase() !== expectedService.toLowerCase()
  ) {
    return fail('service-header');
  }
  // Every signed header must be here and travel on, else STS could not check the signature over it.
  if (signed.some((name) => !SIGNABLE.has(name) || !headers.has(name))) return fail('malformed');
  if (MUST_SIGN.some((name) => !signed.includes(name))) return fail('malformed');

  const host = headers.get('host') ?? '';
  if (!STS_HOST.test(host)) return fail('sts-host');

  const forward: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = headers.get(name);
    if (value !== undefined) forward[name] = value;
  }
  return { ok: true, host, forward, body };
};

/** At most `limit` bytes of the answer as text, or `undefined` when it is longer. */
const readBounded = async (response: Response, limit: number): Promise<string | undefined> => {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/*
 * STS's answer is read with one strict regular expression over its one known element rather than an XML
 * parser: the shape is fixed and flat, and a parser would add a dependency and entity and DTD handling
 * that this answer never needs (and that only widens what a hostile answer could try).
 */
const RESULT = /<GetCallerIdentityResult>\s*((?:<(Arn|UserId|Account)>[^<&]*<\/\2>\s*){3})<\/GetCallerIdentityResult>/;
const ELEMENT = /<(Arn|UserId|Account)>([^<&]*)<\/\1>/g;

/** The identity in a 200 answer of STS, or `undefined` when it is not exactly one ARN, user id and account. */
export const parseCallerIdentity = (
  xml: string,
): { readonly arn: string; readonly userId: string; readonly account: string } | undefined => {
  if (!xml.includes('<GetCallerIdentityResponse')) return undefined;
  const result = RESULT.exec(xml)?.[1];
  if (result === undefined) return undefined;
  const found = new Map<string, string>();
  for (const [, name, value] of result.matchAll(ELEMENT)) {
    if (name === undefined || value === undefined || found.has(name)) return undefined;
    found.set(name, value.trim());
  }
  const arn = found.get('Arn');
  const userId = found.get('UserId');
  const account = found.get('Account');
  if (!arn || !userId || !account || !/^\d{12}$/.test(account)) return undefined;
  if (parseAwsArn(arn)?.account !== account) return undefined;
  return { arn, userId, account };
};

/** What an answer other than 200 means: STS refused the signature or credentials, or it is not answering. */
const refusalOf = (status: number, text: string | undefined): AwsSignInRefusal => {
  const code = /<Code>([^<]*)<\/Code>/.exec(text ?? '')?.[1];
  if (code === 'Throttling' || code === 'RequestLimitExceeded') return 'sts-unavailable';
  return status === 400 || status === 403 ? 'signature' : 'sts-unavailable';
};

/**
 * Checks a signed `sts:GetCallerIdentity` request, has STS answer it, and matches the caller against
 * `principals`. Refuses before any network call when the request is not exactly GetCallerIdentity,
 * lacks a signed `X-Secrets-Service` naming `expectedService`, or is addressed to a host that is not STS.
 */
export const verifyCallerIdentity = async (
  request: SignedCallerIdentityRequest,
  options: VerifyCallerIdentityOptions,
): Promise<CallerIdentityVerdict> => {
  if (!options.expectedService) throw new Error('verifyCallerIdentity needs the expected service host');
  const checked = checkRequest(request, options.expectedService);
  if (!checked.ok) return refused(checked.reason);
  if (options.principals.length === 0) return refused('principal');

  // The stand-in of the local runtime gets the host the request was signed for beside it, as fetch sets
  // `Host` from the URL; the real STS gets it as `Host`, from the URL built on it.
  const url = options.stsUrl ?? `https://${checked.host}/`;
  const headers = options.stsUrl ? { ...checked.forward, 'x-forwarded-host': checked.host } : checked.forward;
  const send = options.fetch ?? fetch;
  let status: number;
  let text: string | undefined;
  try {
    const response = await send(url, {
      method: 'POST',
      headers,
      body: checked.body,
      redirect: 'error',
      signal: AbortSignal.timeout(STS_TIMEOUT_MS),
    });
    status = response.status;
    text = await readBounded(response, MAX_ANSWER_BYTES);
  } catch {
    // Unreachable, too slow, or a redirect (which `redirect: 'error'` turns into an error).
    return refused('sts-unavailable');
  }
  if (status !== 200) return refused(refusalOf(status, text));
  const identity = text === undefined ? undefined : parseCallerIdentity(text);
  if (!identity) return refused('sts-unavailable');
  const principal = matchingPrincipal(options.principals, identity.arn);
  if (principal === undefined) return refused('principal');
  return { accepted: true, ...identity, principal };
};
