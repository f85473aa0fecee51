import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A third-party OpenID Connect provider for tests (oauth2-mock-server), standing in for a company
 * IdP: it publishes `/.well-known/openid-configuration` and its JWKS at `/jwks` (not where Cognito
 * puts it), and signs RS256 tokens with its own key, which the project's code never sees.
 */
export interface MockIdp {
  /** The issuer URL (`iss` of its tokens), `http://127.0.0.1:<port>`: what `SESSION_ISSUER` is set to. */
  readonly issuer: string;
  /** The audience its tokens carry by default: what `SESSION_AUDIENCE` is set to. */
  readonly audience: string;
  /**
   * A token signed by the provider: `iss`, `iat`, `nbf`, `exp` (one hour) and `aud` are set, then
   * `claims` is laid over them (so a test may override any of them, e.g. a wrong `aud`).
   */
  sign(claims: JWTPayload): Promise<string>;
  /** The ID token a verified sign-in as `email` yields: `sub`, `email`, `email_verified: true`. */
  idTokenFor(email: string): Promise<string>;
  stop(): Promise<void>;
}

/** A stable UUID-shaped subject per e-mail, as most providers give. */
const subjectFor = (email: string): string => {
  const hex = createHash('sha256').update(`mock-idp:${email}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** Starts a provider on 127.0.0.1 with a free port and a fresh RS256 key. */
export const startMockIdp = async (audience = 'company-dashboard'): Promise<MockIdp> => {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  // The package names 127.0.0.1 `localhost`, which may resolve to ::1 where nothing listens.
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;
  const sign = (claims: JWTPayload) =>
    server.issuer.buildToken({
      scopesOrTransform: (_header, payload) => {
        Object.assign(payload, { aud: audience }, claims);
      },
    });
  return {
    issuer,
    audience,
    sign,
    idTokenFor: (email) => sign({ sub: subjectFor(email), email, email_verified: true }),
    stop: () => server.stop(),
  };
};
