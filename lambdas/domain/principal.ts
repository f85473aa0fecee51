import type { Scope } from '@contract/scopes';
import type { TokenProject } from './records';

/**
 * Who is calling: a dashboard session (every scope) or an API token (its scopes), as a user id; or a
 * service account through one of its tokens, as the service account's id, limited to its project.
 * Access never depends on an e-mail; `email` is only recorded in the audit trail.
 */
export interface Principal {
  readonly kind: 'session' | 'token' | 'serviceAccount';
  /**
   * The identity provider's stable subject: a session's `sub`, a token's owner; or the service
   * account's id (`sa_…`), which stands where a member's user id does in its project.
   */
  readonly userId: string;
  /** A service account's name, for the record only. */
  readonly name?: string;
  /** Whom a service account proved to be when it signed in for this token (`issuer#subject`, or an AWS ARN). */
  readonly subject?: string;
  /** An API token's public id. */
  readonly tokenId?: string;
  /** When a session was issued (its `iat`), ISO 8601. */
  readonly issuedAt?: string;
  readonly scopes: readonly Scope[];
  /** For the record only: a session's verified e-mail, or the one a token's owner had when creating it. */
  readonly email?: string;
  /**
   * A token's limit to projects and environments (none: not limited). The authorizer holds a route to
   * them; a route that reads beyond its own path (a value's references) holds its reads to them too.
   */
  readonly projects?: readonly TokenProject[];
}
