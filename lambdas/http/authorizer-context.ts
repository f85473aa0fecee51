import { SERVICE_ACCOUNT_ID_PATTERN } from '@contract/identifiers';
import { scopes as allScopes, type Scope } from '@contract/scopes';
import { TokenExpiredError, UnauthorizedError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { TokenProject } from '@lambdas/domain/records';

/**
 * How the authorizer hands the principal to the route: API Gateway's authorizer context, which holds
 * flat string values only. Both ends of that hand-over are here, at the HTTP edge.
 */

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
  scopes: principal.scopes.join(' '),
  ...(principal.tokenId && { tokenId: principal.tokenId }),
  ...(principal.issuedAt && { issuedAt: principal.issuedAt }),
  ...(principal.email && { email: principal.email }),
  ...(principal.projects && { projects: JSON.stringify(principal.projects) }),
  ...(principal.name && { name: principal.name }),
  ...(principal.subject && { subject: principal.subject }),
});

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** A limited token's projects as the context holds them (JSON), or `null` when they are not of that form. */
const projectsIn = (text: string): TokenProject[] | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const isProject = (entry: unknown): entry is TokenProject => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { projectId, environments } = entry as Record<string, unknown>;
    return (
      isText(projectId) &&
      (environments === undefined || (Array.isArray(environments) && environments.every((name) => isText(name))))
    );
  };
  return Array.isArray(parsed) && parsed.every(isProject)
    ? parsed.map(({ projectId, environments }) =>
        environments === undefined ? { projectId } : { projectId, environments },
      )
    : null;
};

/**
 * The principal the authorizer passed on, or the authentication error the route must answer.
 * Fails closed: anything but a complete principal is a 401.
 */
export const principalFromContext = (context: Record<string, unknown> | null | undefined): Principal => {
  if (context?.denial === 'expired') throw new TokenExpiredError();
  const { kind, userId, scopes, tokenId, issuedAt, email, projects, name, subject } = context ?? {};
  const complete =
    isText(userId) &&
    typeof scopes === 'string' &&
    (((kind === 'token' || kind === 'serviceAccount') && isText(tokenId)) || (kind === 'session' && isText(issuedAt)));
  if (!complete) throw new UnauthorizedError();
  // A limit that does not read is no limit at all: refused, never read as none.
  const limits = projects === undefined ? undefined : typeof projects === 'string' ? projectsIn(projects) : null;
  if (limits === null || (limits !== undefined && kind === 'session')) throw new UnauthorizedError();
  const granted = scopes.split(' ').filter((scope): scope is Scope => (allScopes as readonly string[]).includes(scope));
  if (kind === 'serviceAccount') {
    // A service account reaches its one project and never more: anything else is no service account of ours.
    if (limits?.length !== 1 || !SERVICE_ACCOUNT_ID_PATTERN.test(userId)) throw new UnauthorizedError();
    return {
      kind,
      userId,
      tokenId: tokenId as string,
      scopes: granted,
      projects: limits,
      ...(isText(name) && { name }),
      ...(isText(subject) && { subject }),
    };
  }
  const recorded = isText(email) ? { email } : {};
  return kind === 'token'
    ? { kind, userId, tokenId: tokenId as string, scopes: granted, ...recorded, ...(limits && { projects: limits }) }
    : { kind: 'session', userId, issuedAt: issuedAt as string, scopes: granted, ...recorded };
};
