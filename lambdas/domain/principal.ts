import { TokenExpiredError, UnauthorizedError } from './errors';
import { scopes as allScopes, type Scope } from './scopes';

/** Who is calling: a dashboard session (every scope) or an API token (its scopes). */
export interface Principal {
  readonly kind: 'session' | 'token';
  readonly userId: string;
  readonly email: string;
  readonly tokenId?: string;
  readonly scopes: readonly Scope[];
}

/** What an API Gateway authorizer may pass on to the route: flat string values only. */
export type AuthorizerContext = Record<string, string>;

/**
 * Context for a credential that is genuine but past its lifetime. API Gateway can only answer a
 * fixed text for 401s that the authorizer raises, so this one 401 is let through to the route,
 * whose first step (`principalFromContext`) answers it. It carries no identity, so nothing can act on it.
 */
export const expiredContext: AuthorizerContext = { denial: 'expired' };

/** Encodes a principal as authorizer context. */
export const toAuthorizerContext = (principal: Principal): AuthorizerContext => ({
  kind: principal.kind,
  userId: principal.userId,
  email: principal.email,
  scopes: principal.scopes.join(' '),
  ...(principal.tokenId && { tokenId: principal.tokenId }),
});

/**
 * The principal the authorizer passed on, or the authentication error the route must answer.
 * Fails closed: anything but a complete principal is a 401.
 */
export const principalFromContext = (context: Record<string, unknown> | null | undefined): Principal => {
  if (context?.denial === 'expired') throw new TokenExpiredError();
  const { kind, userId, email, scopes, tokenId } = context ?? {};
  if (
    (kind !== 'session' && kind !== 'token') ||
    typeof userId !== 'string' ||
    !userId ||
    typeof email !== 'string' ||
    !email ||
    typeof scopes !== 'string' ||
    (kind === 'token' && typeof tokenId !== 'string')
  ) {
    throw new UnauthorizedError();
  }
  const granted = scopes.split(' ').filter((scope): scope is Scope => (allScopes as readonly string[]).includes(scope));
  return { kind, userId, email, scopes: granted, ...(kind === 'token' && { tokenId: tokenId as string }) };
};
