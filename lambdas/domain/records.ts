import type { AuditEvent, AuditEventType } from '@contract/audit';
import type { ChangeAction, ChangeRequestStatus } from '@contract/change-requests';
import type { AccessLevel, ProjectRole, ServiceAccountLevel } from '@contract/roles';
import type { Scope } from '@contract/scopes';
import type { StoredTrustRule } from '@contract/trust-rules';

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
  /**
   * A service account's token: the project of the service account whose id is `userId`. It reaches
   * that project only, with the service account's access there, for as long as the service account lives.
   */
  readonly serviceAccountProject?: string;
  /**
   * A service account's short-lived token got by signing in without a stored secret: whom the caller
   * proved to be (`issuer#subject`, or an AWS ARN).
   */
  readonly subject?: string;
}

/** Where a service account's token is written: its project, and the manager whose role the write checks. */
export interface TokenPlace {
  readonly projectId: string;
  readonly managerUserId: string;
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
  /** The project's data key, wrapped (KMS, or locally the local key): stored by its first secret write. */
  readonly dataKey?: Uint8Array;
}

/**
 * One environment of a project; `secretCount` counts its live secrets and `exportBytes` the bytes they
 * take in its export (an environment made before secrets existed has none yet: zero).
 */
export interface EnvironmentRecord {
  readonly projectId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly secretCount: number;
  readonly exportBytes?: number;
  /**
   * This environment's life, new each time an environment of its name is made: a secret head written
   * in another life (before the environment was deleted and made again) is none of its secrets. None on
   * an environment made before environments had lives, whose heads have none either.
   */
  readonly life?: string;
  /** A plain member's access unless set for them; none: `write`. */
  readonly defaultAccess?: AccessLevel;
  /** Whether its secrets change only through change requests. */
  readonly protected?: boolean;
  /** The approvals a change request needs there; none: 1. */
  readonly approvals?: number;
  /** Raised by every change of its settings: a write checks that the settings it was allowed by still hold. */
  readonly revision?: number;
  /**
   * Raised by every write of its secrets, in the write's own transaction: what the entity tags of its
   * list and export are made of (domain/entity-tag.ts). None before any write since it was added: 0.
   */
  readonly secretsRevision?: number;
  /**
   * The other environments (`projectId/environment`, references.ts `placeKey`) its values have ever
   * referenced, added by the writes that wrote such a value and never removed: whose revisions its
   * export's entity tag covers, without opening a value.
   */
  readonly referencedPlaces?: ReadonlySet<string>;
}

/** Who wrote a version: a person (a token writes as its owner). */
export interface SecretAuthor {
  readonly userId: string;
  readonly email: string | null;
}

/**
 * A secret's head: its current version, with that version's encrypted value while it is live; a
 * deleted secret's head has no value, `deletedAt`, and a TTL 30 days on. `life` names the versions
 * of this life of the secret (keys.ts).
 */
export interface SecretHeadRecord {
  readonly projectId: string;
  readonly environment: string;
  readonly name: string;
  readonly life: string;
  /** The life of the environment it was written in (`EnvironmentRecord.life`); none before lives. */
  readonly environmentLife?: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: SecretAuthor;
  /** The current value, sealed as the head's copy of this version of this life (crypto/envelope.ts). */
  readonly ciphertext?: Uint8Array;
  /** How `ciphertext` is bound (`VALUE_BINDING`); none on a value sealed before lives and copies were bound. */
  readonly binding?: number;
  /**
   * The current value's keyed digest (crypto/value-digest.ts), which compares it with another value of
   * the project without opening either; none once deleted, nor on a value written before digests.
   */
  readonly valueDigest?: Uint8Array;
  /** The bytes the secret takes in its environment's export; 0 once deleted. */
  readonly exportBytes: number;
  readonly deletedAt?: string;
}

/** One immutable version of a secret: a value written, or (`deleted`, no value) its delete. */
export interface SecretVersionRecord {
  readonly name: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: SecretAuthor;
  /** The value, sealed as this version's own copy (never the head's: crypto/envelope.ts). */
  readonly ciphertext?: Uint8Array;
  /** How `ciphertext` is bound, as on the head. */
  readonly binding?: number;
  readonly deleted: boolean;
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
  /**
   * Who added the member, as their request carried them: none for an owner, and for a member added
   * before it was recorded. The member's own copy shows it as a notice until they open the project.
   */
  readonly addedBy?: Adder;
  /** When the member opened the project since they were added (their own copy only): the notice is gone. */
  readonly seenAt?: string;
  /**
   * A plain member's access set per environment, each for the life of the environment it was set in
   * (an environment deleted and made again starts from its default); none set: the default.
   */
  readonly access?: Readonly<Record<string, SetAccess>>;
  /** Raised by every change of `access`: a write checks that the access it was allowed by still holds. */
  readonly accessRevision?: number;
  /** A service account standing as a member (environment-access.ts `serviceAccountMember`): no default access. */
  readonly serviceAccount?: true;
}

/** Who added a member: their user id, and the e-mail of their request (none for a token older than that record). */
export interface Adder {
  readonly userId: string;
  readonly email: string | null;
}

/** An access level set for one member in one life of an environment. */
export interface SetAccess {
  readonly level: AccessLevel;
  /** The environment's life when it was set (`EnvironmentRecord.life`); none for an environment without lives. */
  readonly life?: string;
}

/**
 * A service account of a project: a machine identity that belongs to the project, never to the person
 * who made it (`createdBy` is a record of who did, nothing more).
 */
export interface ServiceAccountRecord {
  readonly projectId: string;
  readonly serviceAccountId: string;
  readonly name: string;
  readonly description: string | null;
  /**
   * Its access by environment, each level for the life of the environment it was set in: an
   * environment deleted (and perhaps made again) since is none of its access.
   */
  readonly access: Readonly<Record<string, ServiceAccountAccess>>;
  /** Raised by every change of `access`: a write checks that the access it was allowed by still holds. */
  readonly accessRevision?: number;
  readonly createdAt: string;
  readonly createdBy: SecretAuthor;
}

/** A service account's trust rules, with its project: what a sign-in reads first. */
export interface TrustRulesRecord {
  readonly serviceAccountId: string;
  readonly projectId: string;
  /** Oldest first; at most `MAX_TRUST_RULES`. */
  readonly rules: readonly StoredTrustRule[];
}

/** A level a service account holds in one life of an environment. */
export interface ServiceAccountAccess {
  readonly level: ServiceAccountLevel;
  /** The environment's life when it was set (`EnvironmentRecord.life`); none for an environment without lives. */
  readonly life?: string;
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

/** What a secret request reads first, in one strongly consistent call. */
/**
 * What one round of resolving references read, strongly consistent: by project id, the caller's
 * membership and the project (its data key); by `placeKey`, the environments; by `targetKey`, the
 * heads. What does not exist is absent.
 */
export interface ReferencedItems {
  readonly members: ReadonlyMap<string, MemberRecord>;
  readonly projects: ReadonlyMap<string, ProjectRecord>;
  readonly environments: ReadonlyMap<string, EnvironmentRecord>;
  readonly heads: ReadonlyMap<string, SecretHeadRecord>;
}

export interface SecretContext {
  readonly member: MemberRecord | undefined;
  readonly environment: EnvironmentRecord | undefined;
  /** The project, when asked for: its wrapped data key. */
  readonly project: ProjectRecord | undefined;
  /** The heads of the names asked for that exist, by name. */
  readonly heads: ReadonlyMap<string, SecretHeadRecord>;
}

/** One environment of a request about two (a compare, a promote), as read: none when it does not exist. */
export interface EnvironmentRead {
  readonly environment: EnvironmentRecord | undefined;
  /** The heads of the names asked for that exist there, by name. */
  readonly heads: ReadonlyMap<string, SecretHeadRecord>;
}

/** What a request about two environments of a project reads first, in one strongly consistent call. */
export interface PairContext {
  readonly member: MemberRecord | undefined;
  /** The project, when asked for: its wrapped data key. */
  readonly project: ProjectRecord | undefined;
  readonly from: EnvironmentRead;
  readonly to: EnvironmentRead;
}

/** One secret's change: its new head, the version it was read at (none: absent), its new version, its event. */
export interface SecretWrite {
  readonly head: SecretHeadRecord;
  readonly readVersion: number | undefined;
  readonly version: SecretVersionRecord;
  readonly event: AuditEvent;
  /** When the head is deleted: the epoch second after which DynamoDB may delete it. */
  readonly expiresAt?: number;
}

/** Changes of one environment's secrets, written together. */
export interface SecretWrites {
  readonly projectId: string;
  readonly environment: string;
  /** The acting member, checked again in the transaction, with their access as read. */
  readonly userId: string;
  readonly accessRevision: number | undefined;
  readonly writes: readonly SecretWrite[];
  /** The environment's life and settings as read: the write holds only while they still are. */
  readonly environmentLife: string | undefined;
  readonly environmentRevision: number | undefined;
  /** The change of the environment's live secrets and of their export bytes. */
  readonly countDelta: number;
  readonly bytesDelta: number;
  /** A new wrapped data key for the project, stored only if it still has none. */
  readonly newDataKey?: Uint8Array;
  /** The change request the write applies, closed in the same transaction if it is still as read. */
  readonly closing?: ClosingChangeRequest;
  /** Events the change records beside its writes' own, in the same transaction: a promote's read of its sources. */
  readonly alsoRecorded?: readonly AuditEvent[];
  /** The other environments the written values reference (`placeKey`), added to the environment's `referencedPlaces`. */
  readonly referencedPlaces?: readonly string[];
}

/** A change request closed by the write that applies it: as read, as closed, and the events of closing it. */
export interface ClosingChangeRequest {
  readonly read: ChangeRequestRecord;
  readonly closed: ChangeRequestRecord;
  readonly events: readonly AuditEvent[];
}

/**
 * Why a write was not made: the member left, the environment is gone or full, what was read changed, or
 * the change request it applies changed since it was read (`requestChanged`).
 */
export type SecretWriteOutcome = 'written' | 'notMember' | 'noEnvironment' | 'limit' | 'changed' | 'requestChanged';

/**
 * A share: a ciphertext its creator's client sealed (the key never reaches the service), with its
 * limits. Removed at its last view; DynamoDB's TTL removes it some time after it expires.
 */
export interface ShareRecord {
  readonly shareId: string;
  /** The creator: the share is in their list and their trail, and only they may withdraw it. */
  readonly userId: string;
  /** The creator's e-mail when they created it, shown to the people it reveals to. */
  readonly creatorEmail: string | null;
  /** base64url, as the client sent it. */
  readonly ciphertext: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly maxViews: number;
  readonly viewsLeft: number;
  /** The only e-mails it reveals to, lower-cased; absent: anyone signed in. */
  readonly recipients?: readonly string[];
}

/** A share as its creator's list holds it: everything but the ciphertext. */
export type ShareSummary = Omit<ShareRecord, 'ciphertext'>;

/** One secret a change request changes: what it does, the version it was proposed on (0: none). */
export interface ProposedChange {
  readonly name: string;
  readonly action: ChangeAction;
  readonly fromVersion: number;
  /** `restore`: the version whose value it writes again. */
  readonly restoreVersion?: number;
}

/** One approval of a change request. */
export interface Approval {
  readonly userId: string;
  readonly email: string | null;
  readonly at: string;
}

/**
 * A change request of one environment's secrets: stored open, closed once (applied, rejected,
 * cancelled, conflicted); an open one past `expiresAt` has expired. Its values are stored apart, one
 * sealed item per name set (`ProposedValue`). `revision` moves with every change of it, which checks it.
 */
export interface ChangeRequestRecord {
  readonly projectId: string;
  readonly environment: string;
  /** The life of the environment it was proposed in: in another one it is no request at all. */
  readonly environmentLife?: string;
  readonly id: string;
  readonly status: Exclude<ChangeRequestStatus, 'expired'>;
  readonly author: SecretAuthor;
  readonly note?: string;
  readonly changes: readonly ProposedChange[];
  readonly approvals: readonly Approval[];
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly closedBy?: SecretAuthor;
  readonly closedAt?: string;
  readonly forcedReason?: string;
  readonly revision: number;
}

/** A value a change request proposes, sealed for the request (never a head's or a version's). */
export interface ProposedValue {
  readonly name: string;
  readonly ciphertext: Uint8Array;
  readonly binding: number;
}

/** A slot map as read: each thing counted against a limit, by id, with its expiry in epoch ms (data/slot-map.ts). */
export interface StoredSlotMap {
  readonly version: number;
  readonly slots: Readonly<Record<string, number>>;
}

/** What a new change request stores, and what its transaction checks. */
export interface NewChangeRequest {
  readonly request: ChangeRequestRecord;
  readonly values: readonly ProposedValue[];
  /** The slots as read (none: the environment's first request), the new request's, and the expired ones to free. */
  readonly slots: {
    readonly stored: StoredSlotMap | undefined;
    readonly set: ReadonlyMap<string, number>;
    readonly freed: readonly string[];
  };
  readonly event: AuditEvent;
  /** The proposer's access as judged, checked again. */
  readonly accessRevision: number | undefined;
  /** A new wrapped data key for the project, stored only if it still has none. */
  readonly newDataKey?: Uint8Array;
}

/** A webhook of a project: where it delivers, what, and its signing secret sealed under the project's data key. */
export interface WebhookRecord {
  readonly projectId: string;
  readonly webhookId: string;
  readonly url: string;
  readonly events: readonly string[];
  /** The environments whose events it receives; null: every event that matches. */
  readonly environments: readonly string[] | null;
  readonly createdAt: string;
  /** The user who registered it. */
  readonly createdBy: string;
  /** The signing secret, sealed (`encryptWebhookSecret`); never answered, logged or put in an event. */
  readonly secret: Uint8Array;
}

/** What came of one attempt to deliver an event to a webhook. */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** One attempt to deliver an event to a webhook, as its deliveries list shows it. */
export interface DeliveryRecord {
  readonly projectId: string;
  readonly webhookId: string;
  /** When the attempt was made. */
  readonly time: string;
  readonly eventId: string;
  /** The event's own time. */
  readonly eventTime: string;
  /** The event's type. */
  readonly event: string;
  readonly attempt: number;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly outcome: DeliveryOutcome;
  /** Why no 2xx came when no status tells it: a timeout, a refused address, a connection error. */
  readonly error: string | null;
}
