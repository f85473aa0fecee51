import type { Scope } from '@contract/scopes';

/**
 * Who is calling: a dashboard session (every scope) or an API token (its scopes), as a user id. No
 * e-mail: access never depends on one.
 */
export interface Principal {
  readonly kind: 'session' | 'token';
  /** The identity provider's stable subject: a session's `sub`, a token's owner. */
  readonly userId: string;
  /** An API token's public id. */
  readonly tokenId?: string;
  /** When a session was issued (its `iat`), ISO 8601. */
  readonly issuedAt?: string;
  readonly scopes: readonly Scope[];
}
