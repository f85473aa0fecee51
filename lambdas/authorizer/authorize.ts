import type { DenialReason } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { SERVICE_ACCOUNT_ID_PATTERN, TOKEN_PREFIX } from '@contract/identifiers';
import { scopes as allScopes, hasScope, type Scope } from '@contract/scopes';
import { serviceAccountScopes } from '@lambdas/domain/environment-access';
import { networkHolds, parseNetwork, sameIp } from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';
import type { ServiceAccountRecord, TokenRecord } from '@lambdas/domain/records';
import { parseToken, tokenMatchesHash } from '@lambdas/domain/token-format';
import { tokenReaches } from '@lambdas/domain/token-limits';
import { SessionExpiredError, SessionInvalidError } from './session-errors';
import type { SessionIdentity } from './session-verifier';

/**
 * A genuine API token that was refused, for the audit trail: the token and why, and for a service
 * account's token, the service account (whose project's trail records it).
 */
export interface TokenDenial {
  readonly tokenId: string;
  readonly userId: string;
  readonly ownerEmail: string | null;
  readonly reason: DenialReason;
  readonly serviceAccount?: { readonly projectId: string; readonly name: string };
}

/**
 * What the authorizer decided, and which rule decided it (for the log; never the credential). A
 * refusal of a genuine token names it in `denied`.
 */
export type Decision =
  | { readonly outcome: 'allow'; readonly principal: Principal; readonly tokenLastUsedAt?: string | null }
  | { readonly outcome: 'unauthorized'; readonly rule: string }
  | { readonly outcome: 'expired'; readonly rule: string; readonly denied?: TokenDenial }
  | { readonly outcome: 'forbidden'; readonly rule: string; readonly error: string; readonly denied?: TokenDenial };

/** The request as the authorizer sees it. */
export interface AuthorizationRequest {
  /** Every Authorization header value sent (API Gateway's multi-value view). */
  readonly authorization: readonly string[];
  /** Source IP as API Gateway saw it. */
  readonly sourceIp: string;
  /**
   * The scope an API token needs on this route (`null`: sessions only), or `undefined` when the event
   * names none of our routes.
   */
  readonly tokenScope: Scope | null | undefined;
  /** Whether a service account's token may call the route (absent: no). */
  readonly serviceAccounts?: boolean;
  /** The route's resource, e.g. `/api/v1/projects/{projectId}/members` (a limited token's rule). */
  readonly resource: string;
  /** The path parameters, percent-encoded as API Gateway gives them. */
  readonly pathParameters: Readonly<Record<string, string | undefined>> | null;
  readonly now: Date;
}

/** What the authorizer reads and writes; injected so the rules are testable without AWS. */
export interface AuthorizerDeps {
  getToken(tokenId: string): Promise<TokenRecord | undefined>;
  /** A service account, strongly consistent: none once deleted, which stops every token of it at once. */
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccountRecord | undefined>;
  /** Resolves the session's identity; throws SessionExpiredError, SessionInvalidError or an outage error. */
  verifySession(jwt: string, now: Date): Promise<SessionIdentity>;
  /**
   * Whether a verified session may act: false once its user was offboarded after it was issued.
   * Records the profile it presents, so the user can be added to projects by e-mail.
   */
  admitSession(identity: SessionIdentity, now: Date): Promise<boolean>;
}

const BEARER = /^Bearer ([^\s]+)$/i;

const unauthorized = (rule: string): Decision => ({ outcome: 'unauthorized', rule });

/** Whether a request from `sourceIp` may use the token: its allow-list, or else its creating address. */
const fromAllowedAddress = (token: TokenRecord, sourceIp: string): boolean =>
  token.allowedIps
    ? token.allowedIps.some((entry) => {
        const network = parseNetwork(entry);
        return network !== null && networkHolds(network, sourceIp);
      })
    : sameIp(token.boundIp, sourceIp);

const authorizeToken = async (
  rawToken: string,
  request: AuthorizationRequest & { tokenScope: Scope | null },
  deps: AuthorizerDeps,
): Promise<Decision> => {
  const parsed = parseToken(rawToken);
  if (!parsed) return unauthorized('malformed-token');
  const token = await deps.getToken(parsed.tokenId);
  if (!token || !tokenMatchesHash(rawToken, token.secretHash)) return unauthorized('unknown-token');
  // A rotated token past its grace period is as good as revoked: refused alike, and not recorded. The
  // instants are compared so that one that does not parse (NaN) refuses: fail closed.
  if (token.stopsAt !== undefined && !(request.now.getTime() < Date.parse(token.stopsAt))) {
    return unauthorized('token-replaced');
  }
  // A service account's token works while its service account does: deleting it stops them all at once.
  const machine = token.serviceAccountProject;
  const serviceAccount = machine === undefined ? undefined : await deps.getServiceAccount(machine, token.userId);
  if (machine !== undefined && !serviceAccount) return unauthorized('service-account-deleted');
  const denied = (reason: DenialReason): TokenDenial => ({
    tokenId: token.tokenId,
    userId: token.userId,
    ownerEmail: token.ownerEmail ?? null,
    reason,
    ...(machine !== undefined &&
      serviceAccount && { serviceAccount: { projectId: machine, name: serviceAccount.name } }),
  });
  if (token.expiresAt !== null && !(request.now.getTime() < Date.parse(token.expiresAt))) {
    return { outcome: 'expired', rule: 'token-expired', denied: denied('expired') };
  }
  if (!fromAllowedAddress(token, request.sourceIp)) {
    return { outcome: 'forbidden', rule: 'token-ip', error: ErrorText.wrongIp, denied: denied('ip') };
  }
  if (machine !== undefined && serviceAccount) {
    return authorizeServiceAccount(token, serviceAccount, request, denied);
  }
  const needed = request.tokenScope;
  if (needed === null) {
    return {
      outcome: 'forbidden',
      rule: 'session-required',
      error: ErrorText.sessionRequired,
      denied: denied('scope'),
    };
  }
  if (!hasScope(token.scopes, needed)) {
    return { outcome: 'forbidden', rule: 'token-scope', error: ErrorText.scope, denied: denied('scope') };
  }
  if (!tokenReaches(token.projects, request.resource, request.pathParameters)) {
    return {
      outcome: 'forbidden',
      rule: 'token-resource',
      error: ErrorText.tokenResource,
      denied: denied('resource'),
    };
  }
  return {
    outcome: 'allow',
    principal: {
      kind: 'token',
      userId: token.userId,
      tokenId: token.tokenId,
      scopes: token.scopes,
      ...(token.ownerEmail && { email: token.ownerEmail }),
      ...(token.projects && { projects: token.projects }),
    },
    tokenLastUsedAt: token.lastUsedAt,
  };
};

/**
 * The rest of a service account's token's rules: a route a service account may call, the scopes its
 * access gives it now (`read:secrets`, and `write:secrets` where it writes an environment), and its own
 * project only; the environments are its access's, held by the routes as a member's are.
 */
const authorizeServiceAccount = (
  token: TokenRecord,
  serviceAccount: ServiceAccountRecord,
  request: AuthorizationRequest & { tokenScope: Scope | null },
  denied: (reason: DenialReason) => TokenDenial,
): Decision => {
  const needed = request.tokenScope;
  if (needed === null || request.serviceAccounts !== true) {
    return {
      outcome: 'forbidden',
      rule: 'service-account-route',
      error: ErrorText.serviceAccountForbidden,
      denied: denied('route'),
    };
  }
  const scopes = serviceAccountScopes(serviceAccount.access);
  if (!hasScope(scopes, needed)) {
    return { outcome: 'forbidden', rule: 'token-scope', error: ErrorText.scope, denied: denied('scope') };
  }
  const projects = [{ projectId: serviceAccount.projectId }];
  if (!tokenReaches(projects, request.resource, request.pathParameters)) {
    return {
      outcome: 'forbidden',
      rule: 'token-resource',
      error: ErrorText.tokenResource,
      denied: denied('resource'),
    };
  }
  return {
    outcome: 'allow',
    principal: {
      kind: 'serviceAccount',
      userId: serviceAccount.serviceAccountId,
      tokenId: token.tokenId,
      scopes,
      name: serviceAccount.name,
      projects,
      ...(token.subject !== undefined && { subject: token.subject }),
    },
    tokenLastUsedAt: token.lastUsedAt,
  };
};

/**
 * Judges one request's credential for its route. Order (first failure wins): header and form;
 * for a session, its signature and claims, then its user's offboarding mark; for a token, the stored token (unknown, mismatch, revoked, replaced and past its grace period), expiry, source IP, the route's scope, and a limited token's projects and environments.
 * Outages (DynamoDB, the key set) are thrown, never allowed.
 */
export const authorize = async (request: AuthorizationRequest, deps: AuthorizerDeps): Promise<Decision> => {
  if (request.authorization.length !== 1) return unauthorized('authorization-header-count');
  const credential = BEARER.exec(request.authorization[0] ?? '')?.[1];
  if (!credential) return unauthorized('authorization-scheme');
  const { tokenScope } = request;
  if (tokenScope === undefined) return unauthorized('unknown-route');
  if (credential.startsWith(TOKEN_PREFIX)) return authorizeToken(credential, { ...request, tokenScope }, deps);
  return authorizeSession(credential, request.now, deps);
};

const authorizeSession = async (jwt: string, now: Date, deps: AuthorizerDeps): Promise<Decision> => {
  let identity: SessionIdentity;
  try {
    identity = await deps.verifySession(jwt, now);
  } catch (error) {
    if (error instanceof SessionExpiredError) return { outcome: 'expired', rule: 'session-expired' };
    if (error instanceof SessionInvalidError) return unauthorized(`session-${error.message}`);
    throw error;
  }
  // A subject of a service account's id's form would stand as that service account (data/keys.ts memberKey).
  if (SERVICE_ACCOUNT_ID_PATTERN.test(identity.userId)) return unauthorized('session-subject-reserved');
  if (!(await deps.admitSession(identity, now))) return unauthorized('session-offboarded');
  return {
    outcome: 'allow',
    principal: {
      kind: 'session',
      userId: identity.userId,
      issuedAt: identity.issuedAt,
      scopes: [...allScopes],
      email: identity.email,
    },
  };
};
