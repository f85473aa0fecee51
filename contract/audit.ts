import * as z from 'zod/mini';
import { timestamp } from './instant';
import { accessLevels } from './roles';

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
  'member.left',
  'member.access_changed',
  'access.denied',
  'environment.created',
  'environment.updated',
  'environment.deleted',
  'secret.created',
  'secret.updated',
  'secret.deleted',
  'secret.restored',
  'secret.read',
  'change_request.created',
  'change_request.approved',
  'change_request.rejected',
  'change_request.cancelled',
  'change_request.applied',
  'change_request.conflicted',
  'change_request.forced',
  'share.created',
  'share.revealed',
  'share.deleted',
  'service_account.created',
  'service_account.updated',
  'service_account.deleted',
  'service_account.token.created',
  'service_account.token.revoked',
  'service_account.token.rotated',
  'service_account.trust_rule.added',
  'service_account.trust_rule.deleted',
  'service_account.signed_in',
  'service_account.denied',
  'user.offboarded',
  'webhook.created',
  'webhook.deleted',
  'webhook.pinged',
] as const;

/** One kind of audit event. */
export type AuditEventType = (typeof auditEventTypes)[number];

/**
 * Why a sign-in as a service account was refused (`service_account.denied`'s `details.reason`; the
 * caller is told only `Unauthorized: Identity not accepted`): no rule of the kind, or what the OIDC
 * token or the signed AWS request failed.
 */
export const signInRefusals = [
  'no-rule',
  'malformed',
  'issuer',
  'discovery',
  'algorithm',
  'unknown-key',
  'signature',
  'not-yet-valid',
  'audience',
  'subject',
  'claim',
  'not-get-caller-identity',
  'service-header',
  'sts-host',
  'sts-unavailable',
  'principal',
] as const;

/** One reason a sign-in was refused (`expired` as a token's: the workload's token had expired). */
export type SignInRefusal = (typeof signInRefusals)[number] | 'expired';

/**
 * Why a token that exists was refused (`token.denied`'s and `service_account.denied`'s `details.reason`):
 * `route`, a service account's token on a route no service account may call.
 */
export const denialReasons = ['expired', 'ip', 'scope', 'resource', 'route'] as const;

/** One reason a token was refused. */
export type DenialReason = (typeof denialReasons)[number];

/** Every reason an event's `details.reason` may give: a token's refusal, or a sign-in's. */
export const refusalReasons = [...denialReasons, ...signInRefusals] as const;

/** The `source` of every event on the bus. */
export const AUDIT_EVENT_SOURCE = 'secrets-service';

/** Longest user agent an event keeps; a longer one is cut. */
export const MAX_USER_AGENT_LENGTH = 256;

/**
 * The most an event's item takes, in bytes, when it names at most one secret: a 256-character user
 * agent, two e-mails of up to 254 characters, a 128-character secret name or the access levels of 20
 * environments of up to 32 characters or a webhook's origin, its ids, keys and attribute names. A trail's page reads at most this per such event. The read of an export names every secret
 * read (up to 1,000: about 150 KB at the longest names), so a page holding those reads more, and
 * DynamoDB ends a page at 1 MB.
 */
export const MAX_AUDIT_EVENT_BYTES = 2_560;

/** Days an event is kept by default before DynamoDB's TTL deletes it (`auditRetentionDays`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
/** Fewest days `auditRetentionDays` accepts. */
export const MIN_AUDIT_RETENTION_DAYS = 90;

/** Events one page of a trail holds by default, and at most. */
export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 100;

const nullableText = () => z.nullable(z.string());

/** Who can act: a person, a service account, or the service itself. */
export const actorTypes = ['user', 'serviceAccount', 'system'] as const;

/**
 * The one definition of an audit event's shape: its TypeScript type, the trails' answer in the API
 * document, the defaults of the fields an event leaves out (lambdas/domain/audit.ts) and the event
 * bus's mapping of the stored item (lib/constructs/audit-stream.ts) all derive from it. Never a raw
 * token, a hash or a JWT. Every field is always present (null when it does not apply), so the table's
 * item, the API's answer and the bus's `detail` have one shape. Built once, on first use.
 */
const buildAuditEventSchema = () =>
  z
    .object({
      id: z.string().check(z.describe('`evt_` + 20 random base62 characters')),
      time: timestamp(),
      type: z.enum(auditEventTypes),
      /**
       * Who acted: a user, through a dashboard session or one of their API tokens; a service account,
       * through one of its tokens; or the service itself (`system`).
       */
      actor: z.object({
        type: z.enum(actorTypes),
        /** The user's id, or the service account's. */
        id: nullableText(),
        /** A service account's name. */
        name: nullableText(),
        /** The user who acted (null for a service account). */
        userId: nullableText(),
        /** Their e-mail when they acted: a session's, or the one the token's owner had when creating it. */
        email: nullableText(),
        via: z.enum(['session', 'token', 'system']),
        /** The API token's public id, when `via` is `token`. */
        tokenId: nullableText(),
        /**
         * A service account's token got by signing in without a stored secret: whom it proved to be (an
         * OIDC issuer and subject as `issuer#subject`, or an AWS ARN).
         */
        subject: nullableText(),
      }),
      /** What the event is about; each field is null when it does not apply. */
      target: z.object({
        tokenId: nullableText(),
        projectId: nullableText(),
        userId: nullableText(),
        email: nullableText(),
        /** `share.*`: the share's id. */
        shareId: nullableText(),
        /** `change_request.*`: the change request's id. */
        changeRequestId: nullableText(),
        /** `service_account.*`: the service account's id. */
        serviceAccountId: nullableText(),
        /** `webhook.*`: the webhook's id. */
        webhookId: nullableText(),
      }),
      /** The caller's address as API Gateway saw it. */
      sourceIp: nullableText(),
      /** The caller's `User-Agent`, cut at {@link MAX_USER_AGENT_LENGTH} characters. */
      userAgent: z.nullable(z.string().check(z.maxLength(MAX_USER_AGENT_LENGTH))),
      /** API Gateway's request id. */
      requestId: nullableText(),
      /** What matters of the change, as the type has it; each is null when the type does not have it. */
      details: z.object({
        name: nullableText(),
        scopes: z.nullable(z.array(z.string())),
        expiresAt: nullableText(),
        role: nullableText(),
        /** The environment a change or a read of secrets was in. */
        environment: nullableText(),
        /** `secret.*`: the secrets changed or read, each with the version written or read; never a value. */
        secrets: z.nullable(z.array(z.object({ name: z.string(), version: z.int() }))),
        /** `token.denied`: why the token was refused. */
        reason: z.nullable(z.enum(refusalReasons)),
        /** `token.rotated`: the id of the token that replaces the target. */
        replacedBy: nullableText(),
        /** `token.rotated`: when the replaced token stops working (its grace period's end, or its expiry if sooner). */
        stopsAt: nullableText(),
        /** `token.expiring`: the notice's threshold: at most this many days were left when it was sent (7, then 1). */
        daysLeft: z.nullable(z.int()),
        /** `share.created`: how many times the share may be revealed. */
        maxViews: z.nullable(z.int()),
        /** `share.created`, `share.revealed`: how many reveals the share has left. */
        viewsLeft: z.nullable(z.int()),
        /** `member.access_changed`: the levels set, by environment; `service_account.created` and `.updated`: its access. */
        access: z.nullable(z.record(z.string(), z.enum(accessLevels))),
        /** `access.denied`: the level the refused request needed in `environment`. */
        needed: z.nullable(z.enum(accessLevels)),
        /**
         * `change_request.created`: its note; `change_request.forced`: the reason it was applied without
         * approvals; `service_account.trust_rule.*`: the rule in a line (`oidc <issuer> <subject>`, `aws <ARN> …`).
         */
        note: nullableText(),
        /** `environment.updated`: whether the environment is protected now. */
        protected: z.nullable(z.boolean()),
        /** `environment.updated`: the approvals a change request needs there now. */
        approvals: z.nullable(z.int()),
        /** `environment.updated`: a plain member's access there unless set for them. */
        defaultAccess: z.nullable(z.enum(accessLevels)),
        /**
         * `webhook.*`: where the webhook delivers, its origin only (scheme, host and port): a path or
         * query may hold the receiver's own secret, which the trail never keeps.
         */
        url: nullableText(),
      }),
    })
    .check(z.meta({ id: 'AuditEvent' }), z.describe('One recorded change or denial; never a credential'));

let builtSchema: ReturnType<typeof buildAuditEventSchema> | undefined;

/** The audit event's schema (see {@link buildAuditEventSchema}). */
export const auditEventSchema = () => {
  builtSchema ??= buildAuditEventSchema();
  return builtSchema;
};

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** One audit event. */
export type AuditEvent = DeepReadonly<z.output<ReturnType<typeof buildAuditEventSchema>>>;
/** Who acted. */
export type AuditActor = AuditEvent['actor'];
/** What the event is about. */
export type AuditTarget = AuditEvent['target'];
/** The details an event carries. */
export type AuditDetails = AuditEvent['details'];
