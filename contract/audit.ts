/**
 * The audit trail's vocabulary: what an event is, as the API answers it, as the table stores it and
 * as the event bus receives it (`source` {@link AUDIT_EVENT_SOURCE}, `detail-type` the event's type,
 * `detail` the event). Every state change writes one in the same transaction as the change.
 */

/** Every kind of audit event. */
export const auditEventTypes = [
  'token.created',
  'token.revoked',
  'token.rotated',
  'token.expiring',
  'token.denied',
  'project.created',
  'member.added',
  'member.removed',
  'user.offboarded',
] as const;

/** One kind of audit event. */
export type AuditEventType = (typeof auditEventTypes)[number];

/** Why a token that exists was refused (`token.denied`'s `details.reason`). */
export const denialReasons = ['expired', 'ip', 'scope'] as const;

/** One reason a token was refused. */
export type DenialReason = (typeof denialReasons)[number];

/** The `source` of every event on the bus. */
export const AUDIT_EVENT_SOURCE = 'secrets-service';

/** Longest user agent an event keeps; a longer one is cut. */
export const MAX_USER_AGENT_LENGTH = 256;

/**
 * The most an event's item takes, in bytes: a 256-character user agent, two e-mails of up to 254
 * characters, its ids, keys and attribute names. A trail's page reads at most this per event.
 */
export const MAX_AUDIT_EVENT_BYTES = 1_536;

/** Days an event is kept by default before DynamoDB's TTL deletes it (`auditRetentionDays`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
/** Fewest days `auditRetentionDays` accepts. */
export const MIN_AUDIT_RETENTION_DAYS = 90;

/** Events one page of a trail holds by default, and at most. */
export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 100;

/** Who acted: a user, through a dashboard session or one of their API tokens (`system` for the offboarding). */
export interface AuditActor {
  readonly userId: string | null;
  /** Their e-mail when they acted: a session's, or the one the token's owner had when creating it. */
  readonly email: string | null;
  readonly via: 'session' | 'token' | 'system';
  /** The API token's public id, when `via` is `token`. */
  readonly tokenId: string | null;
}

/** What the event is about; each field is null when it does not apply. */
export interface AuditTarget {
  readonly tokenId: string | null;
  readonly projectId: string | null;
  readonly userId: string | null;
  readonly email: string | null;
}

/**
 * One audit event. Never a raw token, a hash or a JWT. Every field is always present (null when it
 * does not apply), so the table's item, the API's answer and the bus's `detail` have one shape.
 */
export interface AuditEvent {
  /** `evt_` + 20 random base62 characters. */
  readonly id: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly time: string;
  readonly type: AuditEventType;
  readonly actor: AuditActor;
  readonly target: AuditTarget;
  /** The caller's address as API Gateway saw it. */
  readonly sourceIp: string | null;
  /** The caller's `User-Agent`, cut at {@link MAX_USER_AGENT_LENGTH} characters. */
  readonly userAgent: string | null;
  /** API Gateway's request id. */
  readonly requestId: string | null;
  /** What matters of the change, as the type has it (see {@link AuditDetails}). */
  readonly details: AuditDetails;
}

/** The details an event carries; each is null when the type does not have it. */
export interface AuditDetails {
  readonly name: string | null;
  readonly scopes: readonly string[] | null;
  readonly expiresAt: string | null;
  readonly role: string | null;
  readonly reason: DenialReason | null;
  /** `token.rotated`: the id of the token that replaces the target. */
  readonly replacedBy: string | null;
  /** `token.rotated`: when the replaced token stops working (its grace period's end, or its expiry if sooner). */
  readonly stopsAt: string | null;
  /** `token.expiring`: the notice's threshold: at most this many days were left when it was sent (7, then 1). */
  readonly daysLeft: number | null;
}
