import { optionalUrlEnv, requiredEnv, requiredUrlEnv } from '@lambdas/env';
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyOptions, jwtVerify } from 'jose';
import { SessionExpiredError, SessionInvalidError, SessionKeysUnavailableError } from './session-errors';

const issuer = requiredUrlEnv('SESSION_ISSUER');
const audience = requiredEnv('SESSION_AUDIENCE');
/** When unset, the key set is where the issuer's discovery document says (`jwks_uri`). */
const configuredJwksUrl = optionalUrlEnv('SESSION_JWKS_URL');
/** Bound on each call to the provider, discovery as key fetch: a slow provider is an outage, not a hang. */
const PROVIDER_TIMEOUT_MS = 2_000;

/** The identity a verified session carries. */
export interface SessionIdentity {
  readonly userId: string;
  readonly email: string;
}

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

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/**
 * Created once per container, on the first session it verifies: discovery and the remote key set
 * load Node's fetch machinery, about 10 ms of cold start that requests with API tokens never need.
 * A failed discovery is not kept, so a later session tries again. jose caches the keys and refetches
 * on an unknown `kid` (with a cooldown).
 */
let keySet: Promise<KeySet> | undefined;
const sessionKeys = (): Promise<KeySet> => {
  if (!keySet) {
    const pending = (configuredJwksUrl ? Promise.resolve(configuredJwksUrl) : discoverJwksUrl()).then((url) =>
      createRemoteJWKSet(new URL(url), {
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
  requiredClaims: ['sub', 'exp'],
};

const identityOf = (payload: JWTPayload): SessionIdentity => {
  // Cognito: only ID tokens carry the verified e-mail; an access token must never pass.
  if (payload.token_use !== undefined && payload.token_use !== 'id') throw new SessionInvalidError('not-id-token');
  if (payload.email_verified !== true) throw new SessionInvalidError('email-unverified');
  if (typeof payload.email !== 'string' || !payload.email.includes('@')) throw new SessionInvalidError('no-email');
  if (typeof payload.sub !== 'string' || !payload.sub) throw new SessionInvalidError('no-subject');
  return { userId: payload.sub, email: payload.email.trim().toLowerCase() };
};

const isKeysUnavailable = (error: unknown): boolean =>
  error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError) || error.code === 'ERR_JOSE_GENERIC';

/**
 * Verifies a session JWT against the provider's key set as of `now`. A token that would be valid
 * but for `exp` is reported as expired only after its signature and every other claim are checked.
 */
export const verifySession = async (jwt: string, now: Date): Promise<SessionIdentity> => {
  try {
    const { payload } = await jwtVerify(jwt, await sessionKeys(), { ...baseOptions, currentDate: now });
    return identityOf(payload);
  } catch (error) {
    if (error instanceof SessionInvalidError) throw error;
    if (error instanceof errors.JWTExpired && typeof error.payload.exp === 'number') {
      const { payload } = await jwtVerify(jwt, await sessionKeys(), {
        ...baseOptions,
        currentDate: new Date((error.payload.exp - 1) * 1000),
      }).catch(() => {
        throw new SessionInvalidError('invalid');
      });
      identityOf(payload);
      throw new SessionExpiredError('expired');
    }
    if (isKeysUnavailable(error)) throw new SessionKeysUnavailableError('keys-unavailable', { cause: error });
    throw new SessionInvalidError('invalid', { cause: error });
  }
};
