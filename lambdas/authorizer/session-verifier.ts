import { normalizeEmail } from '@contract/email';
import { optionalUrlEnv, requiredEnv, requiredUrlEnv } from '@lambdas/env';
import type { JWTPayload, JWTVerifyOptions } from 'jose';
import type * as Jose from './jose';
import { SessionExpiredError, SessionInvalidError, SessionKeysUnavailableError } from './session-errors';

const issuer = requiredUrlEnv('SESSION_ISSUER');
const audience = requiredEnv('SESSION_AUDIENCE');
/** When unset, the key set is where the issuer's discovery document says (`jwks_uri`). */
const configuredJwksUrl = optionalUrlEnv('SESSION_JWKS_URL');
/**
 * jose, loaded with the first session rather than with the bundle: a request with an API token (the
 * automation the service mostly serves) never needs it, and evaluating it is most of what the
 * authorizer's cold load spends beyond its floor (`npm run bench`, cold load).
 */
let loadedJose: typeof Jose | undefined;
const jose = (): typeof Jose => {
  loadedJose ??= require('./jose') as typeof Jose;
  return loadedJose;
};

/** Bound on each call to the provider, discovery as key fetch: a slow provider is an outage, not a hang. */
const PROVIDER_TIMEOUT_MS = 2_000;

/** The identity a verified session carries. */
export interface SessionIdentity {
  /** `sub`: the user, in every access decision. */
  readonly userId: string;
  /** The verified address, by the service's one e-mail rule: to find the user by, and to show. */
  readonly email: string;
  /** `iat`, ISO 8601. */
  readonly issuedAt: string;
}

/** The last second a JavaScript Date can hold. */
const MAX_EPOCH_SECONDS = 8.64e12;
/** Longest `sub` accepted: it becomes part of DynamoDB keys. */
const MAX_SUBJECT_LENGTH = 255;
/** A subject of printable characters only, so that no key or log line holds a control character. */
const SUBJECT_PATTERN = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

/**
 * The provider's `jwks_uri`, as any OpenID Connect relying party finds it. The document must name
 * the configured issuer, else another provider's keys could vouch for this one's sessions.
 */
const discoverJwksUrl = async (): Promise<string> => {
  const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
    headers: { Accept: 'application/json' },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`OpenID discovery answered HTTP ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new Error('OpenID discovery names another issuer');
  const jwksUri = document.jwks_uri;
  if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri) || !URL.canParse(jwksUri)) {
    throw new Error('OpenID discovery has no jwks_uri');
  }
  return jwksUri;
};

type KeySet = ReturnType<typeof Jose.createRemoteJWKSet>;

/**
 * Created once per container, on the first session it verifies: discovery and the remote key set
 * load Node's fetch machinery, cold-start time that requests with API tokens never need.
 * A failed discovery is not kept, so a later session tries again. jose caches the keys and refetches
 * on an unknown `kid` (with a cooldown).
 */
let keySet: Promise<KeySet> | undefined;
const sessionKeys = (): Promise<KeySet> => {
  if (!keySet) {
    const pending = (configuredJwksUrl ? Promise.resolve(configuredJwksUrl) : discoverJwksUrl()).then((url) =>
      jose().createRemoteJWKSet(new URL(url), {
        timeoutDuration: PROVIDER_TIMEOUT_MS,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
      }),
    );
    keySet = pending;
    pending.catch(() => {
      if (keySet === pending) keySet = undefined;
    });
  }
  return keySet;
};

const baseOptions: JWTVerifyOptions = {
  algorithms: ['RS256', 'ES256'],
  issuer,
  audience,
  requiredClaims: ['sub', 'exp', 'iat'],
};

const identityOf = (payload: JWTPayload): SessionIdentity => {
  // Cognito: only ID tokens carry the verified e-mail; an access token must never pass.
  if (payload.token_use !== undefined && payload.token_use !== 'id') throw new SessionInvalidError('not-id-token');
  if (payload.email_verified !== true) throw new SessionInvalidError('email-unverified');
  // The rule is judged on the claim as sent, before any lower-casing.
  const email = typeof payload.email === 'string' ? normalizeEmail(payload.email) : undefined;
  if (email === undefined) throw new SessionInvalidError('email-invalid');
  const { sub, iat } = payload;
  if (typeof sub !== 'string' || sub.length > MAX_SUBJECT_LENGTH || !SUBJECT_PATTERN.test(sub)) {
    throw new SessionInvalidError('no-subject');
  }
  if (typeof iat !== 'number' || !(Math.abs(iat) <= MAX_EPOCH_SECONDS)) throw new SessionInvalidError('no-issue-time');
  return { userId: sub, email, issuedAt: new Date(iat * 1000).toISOString() };
};

const isKeysUnavailable = (error: unknown): boolean =>
  error instanceof jose().errors.JWKSTimeout ||
  !(error instanceof jose().errors.JOSEError) ||
  error.code === 'ERR_JOSE_GENERIC';

/**
 * Verifies a session JWT against the provider's key set as of `now`. A token that would be valid
 * but for `exp` is reported as expired only after its signature and every other claim are checked.
 */
export const verifySession = async (jwt: string, now: Date): Promise<SessionIdentity> => {
  try {
    const { payload } = await jose().jwtVerify(jwt, await sessionKeys(), { ...baseOptions, currentDate: now });
    return identityOf(payload);
  } catch (error) {
    if (error instanceof SessionInvalidError) throw error;
    if (error instanceof jose().errors.JWTExpired && typeof error.payload.exp === 'number') {
      const { payload } = await jose()
        .jwtVerify(jwt, await sessionKeys(), {
          ...baseOptions,
          currentDate: new Date((error.payload.exp - 1) * 1000),
        })
        .catch(() => {
          throw new SessionInvalidError('invalid');
        });
      identityOf(payload);
      throw new SessionExpiredError('expired');
    }
    if (isKeysUnavailable(error)) throw new SessionKeysUnavailableError('keys-unavailable', { cause: error });
    throw new SessionInvalidError('invalid', { cause: error });
  }
};
