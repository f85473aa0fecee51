import type { AuditEvent, AuditEventType } from '@contract/audit';
import type { ProjectRole } from '@contract/roles';
import type { Scope } from '@contract/scopes';

/*
 * What the service stores, as the use cases read and write it through their ports and the
 * repositories keep it in DynamoDB (their items add only keys and an entity type).
 */

/** A stored API token. Only the hash of the raw token is ever stored. */
export interface TokenRecord {
  readonly tokenId: string;
  /** The owner: the token acts as this user, whatever their e-mail address becomes. */
  readonly userId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly secretHash: string;
  readonly boundIp: string;
  readonly displayPrefix: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  /** Addresses and networks the token works from, canonical; absent: `boundIp` alone. */
  readonly allowedIps?: readonly string[];
  /** The address of that use, canonical (absent on tokens never used since it was recorded). */
  readonly lastUsedIp?: string | null;
  /** The owner's e-mail when they created the token, for the audit trail only (absent on older tokens). */
  readonly ownerEmail?: string;
  /** Once rotated: the token that replaces it. */
  readonly replacedBy?: string;
  /** Once rotated: when it stops working, as if revoked. */
  readonly stopsAt?: string;
  /** The projects (and environments) it is limited to; absent: all of its owner's. */
  readonly projects?: readonly TokenProject[];
}

/** One project a limited token reaches; without `environments`, all of that project's. */
export interface TokenProject {
  readonly projectId: string;
  readonly environments?: readonly string[];
}

/** A project. */
export interface ProjectRecord {
  readonly projectId: string;
  readonly name: string;
  readonly createdAt: string;
}

/** One environment of a project; `secretCount` counts its live secrets. */
export interface EnvironmentRecord {
  readonly projectId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly secretCount: number;
}

/**
 * One membership, keyed by the member's user id; it carries the project's name and creation time for
 * the member's project list. It holds no e-mail: a member is shown under their profile's address.
 */
export interface MemberRecord {
  readonly projectId: string;
  readonly projectName: string;
  readonly projectCreatedAt: string;
  readonly userId: string;
  readonly role: ProjectRole;
  readonly addedAt: string;
}

/**
 * A user as their newest verified session presented them, and the offboarding mark. An item that
 * holds only the mark (a user offboarded before they ever signed in) has no address yet.
 */
export interface UserProfile {
  readonly userId: string;
  /** The verified e-mail of the newest session: for display, never for an access decision. */
  readonly email?: string;
  readonly lastSeenAt?: string;
  /** `iat` of the session that recorded the profile: only a session issued since may record it again. */
  readonly sessionIssuedAt?: string;
  /** When the user was offboarded: no session issued at or before it is let in, ever. */
  readonly offboardedAt?: string;
}

/** Which user holds a verified e-mail address: the one whose newest session carried it. */
export interface EmailClaim {
  readonly email: string;
  readonly userId: string;
  /** `iat` of the session that claimed it: only a session issued later takes it over. */
  readonly issuedAt?: string;
  /** When its holder was offboarded: from then on the address finds nobody. */
  readonly offboardedAt?: string;
}

/** A session's identity as its user's profile and address claim record it. */
export interface RecordedSession {
  readonly userId: string;
  readonly email: string;
  /** `iat` of the session, ISO 8601. */
  readonly issuedAt: string;
}

/** What a page of a trail asks for. */
export interface TrailQuery {
  readonly limit: number;
  readonly cursor?: string;
  readonly type?: AuditEventType;
  /** Inclusive bounds on the event's time, ISO 8601. */
  readonly since?: string;
  readonly until?: string;
}

/** One page of a trail, newest first, and the cursor of the next (null when there is none). */
export interface TrailPage {
  readonly events: AuditEvent[];
  readonly nextCursor: string | null;
}

/** A token whose next expiry notice is due, as the notice index holds it. */
export interface DueNotice {
  readonly tokenId: string;
  readonly userId: string;
  readonly name: string;
  readonly expiresAt: string;
  /** Its notice-index sort key as read: a write for this notice holds only while the entry is unchanged. */
  readonly GSI2SK: string;
}
