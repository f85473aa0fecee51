/**
 * The caller's half of AWS IAM sign-in: an `sts:GetCallerIdentity` request signed (SigV4) with the
 * caller's AWS credentials but never sent; the service sends it to STS and learns from the answer whose
 * credentials signed it. It signs `X-Secrets-Service`, the host of the API it signs in to, so the
 * request is good for that service only. Node only (not exported from the client's index, which the
 * dashboard bundles).
 */
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/** AWS credentials, as the SDK's credential providers resolve them. */
export interface AwsSignInCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Present for temporary credentials (a role session). */
  readonly sessionToken?: string;
}

export interface CallerIdentitySigningOptions {
  readonly credentials: AwsSignInCredentials;
  /** The STS region whose host to sign for (`sts.<region>.amazonaws.com`); default: `sts.amazonaws.com` in us-east-1. */
  readonly region?: string;
  /** The host of the API signed in to, e.g. `secrets.example.com` or `127.0.0.1:3000` (`serviceHostOf`). */
  readonly service: string;
  /** When it is signed; default: now. */
  readonly signingDate?: Date;
}

/** The request to put under `request` in `POST /api/v1/auth/aws`. */
export interface SignedCallerIdentityRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The header naming the service a request is signed for. */
export const SERVICE_HEADER = 'X-Secrets-Service';
const BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
const REGION = /^[a-z]{2}(?:-gov)?-[a-z]+-\d$/;

/** The host of an API base URL, as the service expects it in `X-Secrets-Service`: `https://a.example/api` → `a.example`. */
export const serviceHostOf = (apiUrl: string): string => new URL(apiUrl).host;

/** The STS host for a region: `sts.amazonaws.com` without one, `sts.<region>.amazonaws.com(.cn)` with one. */
export const stsHostOf = (region?: string): string => {
  if (region === undefined) return 'sts.amazonaws.com';
  if (!REGION.test(region)) throw new Error(`Not an AWS region: ${JSON.stringify(region)}`);
  return region.startsWith('cn-') ? `sts.${region}.amazonaws.com.cn` : `sts.${region}.amazonaws.com`;
};

/** Signs `sts:GetCallerIdentity` for `service` with `credentials`, without sending it. */
export const signedCallerIdentityRequest = async (
  options: CallerIdentitySigningOptions,
): Promise<SignedCallerIdentityRequest> => {
  if (!options.service) throw new Error('Name the service host to sign in to');
  const host = stsHostOf(options.region);
  const signer = new SignatureV4({
    credentials: options.credentials,
    region: options.region ?? 'us-east-1',
    service: 'sts',
    sha256: Sha256,
    // No `X-Amz-Content-Sha256`: STS hashes the body itself.
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: host,
      path: '/',
      query: {},
      headers: {
        host,
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'x-secrets-service': options.service,
      },
      body: BODY,
    },
    { signingDate: options.signingDate ?? new Date() },
  );
  const header = (name: string): string => signed.headers[name] ?? '';
  return {
    headers: {
      Authorization: header('authorization'),
      'X-Amz-Date': header('x-amz-date'),
      ...(options.credentials.sessionToken ? { 'X-Amz-Security-Token': header('x-amz-security-token') } : {}),
      Host: host,
      'Content-Type': header('content-type'),
      [SERVICE_HEADER]: options.service,
    },
    body: BODY,
  };
};
