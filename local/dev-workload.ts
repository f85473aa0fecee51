import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JSON_HEADERS } from '@contract/headers';
import { MAX_AUDIENCE_LENGTH, MAX_SUBJECT_LENGTH } from '@contract/trust-rules';
import { clock } from '@lambdas/domain/clock';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import type { GatewayResult } from './gateway';

/*
 * The development workload issuer: an OpenID Connect issuer of workload ID tokens, as GitHub Actions'
 * is for a CI job, so that a service account's `oidc` trust rules can be tried with `npm start` alone
 * (`npm run workload-token`). It serves its discovery document and key set under `/_dev/workload` of
 * the local service, on `http://127.0.0.1`, which only the local runtime trusts. Never deployed.
 */

/** Path under the base URL where the development workload issuer lives. */
export const DEV_WORKLOAD_PATH = '/_dev/workload';
/** The audience of its tokens unless the request names another. */
export const DEV_WORKLOAD_AUDIENCE = 'secrets-service';
/** A token's life unless the request names another, in seconds. */
export const DEV_WORKLOAD_DEFAULT_SECONDS = 5 * 60;
/** The longest life a token may be given, in seconds. */
export const DEV_WORKLOAD_MAX_SECONDS = 60 * 60;
/** The claims a request may not set: the issuer sets them. */
const RESERVED_CLAIMS = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);
/** The most extra claims a request may set. */
const MAX_EXTRA_CLAIMS = 20;
const ALG = 'ES256';

const DISCOVERY_PATH = `${DEV_WORKLOAD_PATH}/.well-known/openid-configuration`;
const JWKS_PATH = `${DEV_WORKLOAD_PATH}/.well-known/jwks.json`;
const TOKEN_PATH = `${DEV_WORKLOAD_PATH}/token`;

/** What a token is asked for with. */
export interface WorkloadTokenRequest {
  readonly sub: string;
  /** Default {@link DEV_WORKLOAD_AUDIENCE}. */
  readonly aud?: string;
  /** More claims, e.g. `{"repository_owner": "acme"}`. */
  readonly claims?: Readonly<Record<string, string | number | boolean>>;
  /** Seconds the token lasts: 1 to {@link DEV_WORKLOAD_MAX_SECONDS}, default {@link DEV_WORKLOAD_DEFAULT_SECONDS}. */
  readonly expiresIn?: number;
}

/** The development workload issuer. */
export interface DevWorkloadIssuer {
  /** `<base>/_dev/workload`. */
  readonly issuer: string;
  readonly jwks: { keys: JWK[] };
  /** Its OpenID Connect discovery document. */
  readonly discovery: Readonly<Record<string, unknown>>;
  /** A signed workload token. */
  issue(request: WorkloadTokenRequest): Promise<string>;
  /** Signs arbitrary claims with its key (tests craft near-miss tokens with it). */
  sign(claims: JWTPayload): Promise<string>;
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** The key, kept in `dataDir` when there is one (so its tokens outlive a restart), as the identity provider's. */
const loadKey = async (dataDir: string | undefined): Promise<{ privateJwk: JWK; kid: string }> => {
  const file = dataDir ? join(dataDir, 'dev-workload-key.json') : undefined;
  if (file) {
    const stored = await readFile(file, 'utf8').catch(() => undefined);
    if (stored) return JSON.parse(stored) as { privateJwk: JWK; kid: string };
  }
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const key = { privateJwk: await exportJWK(privateKey), kid: randomUUID() };
  if (file) await writeFile(file, JSON.stringify(key), { mode: 0o600 });
  return key;
};

/** Creates the issuer at `issuer` (`<base>/_dev/workload`); with `dataDir` its key survives restarts. */
export const createDevWorkloadIssuer = async (issuer: string, dataDir?: string): Promise<DevWorkloadIssuer> => {
  const { privateJwk, kid } = await loadKey(dataDir);
  const privateKey = (await importJWK(privateJwk, ALG)) as SigningKey;
  const { d, ...publicJwk } = privateJwk;
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: ALG, kid, typ: 'JWT' }).sign(privateKey);
  return {
    issuer,
    jwks: { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] },
    discovery: {
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ALG],
      claims_supported: ['sub', 'aud', 'exp', 'iat', 'iss', 'jti', 'nbf'],
    },
    sign,
    issue: async ({ sub, aud, claims, expiresIn }) => {
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      return sign({
        ...claims,
        iss: issuer,
        sub,
        aud: aud ?? DEV_WORKLOAD_AUDIENCE,
        jti: randomUUID(),
        iat: issuedAt,
        nbf: issuedAt,
        exp: issuedAt + (expiresIn ?? DEV_WORKLOAD_DEFAULT_SECONDS),
      });
    },
  };
};

/** Whether a path is the development workload issuer's. */
export const isDevWorkloadPath = (path: string): boolean =>
  path === DEV_WORKLOAD_PATH || path.startsWith(`${DEV_WORKLOAD_PATH}/`);

const json = (statusCode: number, body: unknown): GatewayResult => ({
  statusCode,
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
});

const TOKEN_USAGE =
  'Send {"sub": "<subject>", "aud"?: "<audience>", "claims"?: {"<name>": "<value>"}, "expiresIn"?: <seconds, at most 3600>}';

/** A token request read from a body, or the sentence saying what is wrong with it. */
export const readWorkloadTokenRequest = (body: string): WorkloadTokenRequest | string => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return TOKEN_USAGE;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return TOKEN_USAGE;
  const { sub, aud, claims, expiresIn, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `Unknown fields ${Object.keys(rest).join(', ')}: ${TOKEN_USAGE}`;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH) {
    return `Give "sub": 1 to ${MAX_SUBJECT_LENGTH} characters`;
  }
  if (aud !== undefined && (typeof aud !== 'string' || aud.length === 0 || aud.length > MAX_AUDIENCE_LENGTH)) {
    return `Give "aud" as 1 to ${MAX_AUDIENCE_LENGTH} characters, or leave it out`;
  }
  if (
    expiresIn !== undefined &&
    (typeof expiresIn !== 'number' ||
      !Number.isInteger(expiresIn) ||
      expiresIn < 1 ||
      expiresIn > DEV_WORKLOAD_MAX_SECONDS)
  ) {
    return `Give "expiresIn" as whole seconds from 1 to ${DEV_WORKLOAD_MAX_SECONDS}, or leave it out`;
  }
  if (claims !== undefined) {
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
      return 'Give "claims" as an object of names and text, number or boolean values';
    }
    const entries = Object.entries(claims);
    if (entries.length > MAX_EXTRA_CLAIMS) return `Give at most ${MAX_EXTRA_CLAIMS} claims`;
    for (const [name, value] of entries) {
      if (RESERVED_CLAIMS.has(name) || name === '__proto__') {
        return `The claim ${JSON.stringify(name)} is the issuer's to set: use "sub", "aud" or "expiresIn"`;
      }
      if (!['string', 'number', 'boolean'].includes(typeof value)) {
        return `The claim ${JSON.stringify(name)} must be text, a number or a boolean`;
      }
    }
  }
  return {
    sub,
    ...(aud !== undefined && { aud: aud as string }),
    ...(claims !== undefined && { claims: claims as Record<string, string | number | boolean> }),
    ...(expiresIn !== undefined && { expiresIn: expiresIn as number }),
  };
};

/** The issuer's routes: its discovery document, its key set, and `POST …/token`; others undefined. */
export const devWorkloadRoute = async (
  workload: DevWorkloadIssuer,
  method: string,
  path: string,
  body: Buffer,
): Promise<GatewayResult | undefined> => {
  if (method === 'GET' && path === DISCOVERY_PATH) return json(200, workload.discovery);
  if (method === 'GET' && path === JWKS_PATH) return json(200, workload.jwks);
  if (method === 'POST' && path === TOKEN_PATH) {
    const request = readWorkloadTokenRequest(body.toString('utf8'));
    if (typeof request === 'string') return json(400, { success: false, error: request });
    return json(200, { token: await workload.issue(request) });
  }
  return undefined;
};
