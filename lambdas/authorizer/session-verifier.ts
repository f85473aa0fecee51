import { optionalUrlEnv, requiredEnv, requiredUrlEnv } from '@lambdas/env';
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyOptions, jwtVerify } from 'jose';
import { SessionExpiredError, SessionInvalidError, SessionKeysUnavailableError } from './session-errors';

const issuer = requiredUrlEnv('SESSION_ISSUER');
const audience = requiredEnv('SESSION_AUDIENCE');
/** Defaults to the issuer's `/.well-known/jwks.json`, where Cognito and the dev IdP publish keys. */
const jwksUrl = optionalUrlEnv('SESSION_JWKS_URL') ?? `${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`;

/** The identity a verified session carries. */
export interface SessionIdentity {
  readonly userId: string;
  readonly email: string;
}

/**
 * Created once per container, on the first session it verifies: building the remote key set loads
 * Node's fetch machinery, about 10 ms of cold start that requests with API tokens never need. jose
 * caches the keys and refetches on an unknown `kid` (with a cooldown).
 */
let keySet: ReturnType<typeof createRemoteJWKSet> | undefined;
const sessionKeys = () => {
  keySet ??= createRemoteJWKSet(new URL(jwksUrl), {
    timeoutDuration: 2_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });
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
    const { payload } = await jwtVerify(jwt, sessionKeys(), { ...baseOptions, currentDate: now });
    return identityOf(payload);
  } catch (error) {
    if (error instanceof SessionInvalidError) throw error;
    if (error instanceof errors.JWTExpired && typeof error.payload.exp === 'number') {
      const { payload } = await jwtVerify(jwt, sessionKeys(), {
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
