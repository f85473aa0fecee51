import { createHash, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clock } from '@lambdas/domain/clock';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';

/** Audience of the development identity provider's sessions. */
export const DEV_AUDIENCE = 'local-dashboard';
/** Path under the base URL where the development identity provider lives. */
export const DEV_IDP_PATH = '/_dev/idp';
/** How long a session lasts, in seconds, however it was signed in. */
export const SESSION_SECONDS = 60 * 60;

/** The development identity provider: signs RS256 session JWTs like Cognito's ID tokens. Never deployed. */
export interface DevIdp {
  readonly issuer: string;
  readonly jwks: { keys: JWK[] };
  /** The private signing key with its `kid`, for the OpenID provider that signs the browser's sessions. */
  readonly signingJwk: JWK;
  /** A session for an e-mail, as a dashboard sign-in would get it. */
  issue(email: string): Promise<string>;
  /** Signs arbitrary claims with the provider's key (tests use it to craft near-miss sessions). */
  sign(claims: JWTPayload): Promise<string>;
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const loadKey = async (dataDir: string | undefined): Promise<{ privateJwk: JWK; kid: string }> => {
  const file = dataDir ? join(dataDir, 'dev-idp-key.json') : undefined;
  if (file) {
    const stored = await readFile(file, 'utf8').catch(() => undefined);
    if (stored) return JSON.parse(stored) as { privateJwk: JWK; kid: string };
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const key = { privateJwk: await exportJWK(privateKey), kid: randomUUID() };
  if (file) await writeFile(file, JSON.stringify(key), { mode: 0o600 });
  return key;
};

/** Whether the development identity provider signs in `email`: any address of the form `x@y`. */
export const isDevEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+$/.test(email.trim());

/** The address a session carries for what a person typed. */
export const normalizeDevEmail = (email: string): string => email.trim().toLowerCase();

/** A stable subject per normalized e-mail, shaped like Cognito's UUID `sub`. */
export const subjectFor = (email: string): string => {
  const hex = createHash('sha256').update(`dev-idp:${email}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** Creates the provider for `issuer`; with `dataDir` its key survives restarts (so do issued sessions). */
export const createDevIdp = async (issuer: string, dataDir?: string): Promise<DevIdp> => {
  const { privateJwk, kid } = await loadKey(dataDir);
  const privateKey = (await importJWK(privateJwk, 'RS256')) as SigningKey;
  const { d, p, q, dp, dq, qi, ...publicJwk } = privateJwk;
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
  return {
    issuer,
    jwks: { keys: [{ ...publicJwk, kid, alg: 'RS256', use: 'sig' }] },
    signingJwk: { ...privateJwk, kid, alg: 'RS256', use: 'sig' },
    sign,
    issue: async (email) => {
      const normalized = normalizeDevEmail(email);
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      return sign({
        iss: issuer,
        aud: DEV_AUDIENCE,
        sub: subjectFor(normalized),
        email: normalized,
        email_verified: true,
        token_use: 'id',
        iat: issuedAt,
        exp: issuedAt + SESSION_SECONDS,
      });
    },
  };
};
