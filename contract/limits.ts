/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Longest token or project name. */
export const MAX_NAME_LENGTH = 100;
/** Longest token lifetime in days (about ten years). */
export const MAX_TTL_DAYS = 3650;
/** Most entries a token's `allowedIps` may hold. */
export const MAX_ALLOWED_IPS = 10;
/** The broadest network an `allowedIps` entry may name, by family: a /8 of IPv4, a /32 of IPv6. */
export const BROADEST_ALLOWED_PREFIX = { 4: 8, 6: 32 } as const;
/** Most projects a limited token may list, and most environments per listed project. */
export const MAX_TOKEN_PROJECTS = 10;
export const MAX_TOKEN_ENVIRONMENTS = 20;
/** Lifetime of a token created without `ttlDays`. */
export const DEFAULT_TTL_DAYS = 30;
/** Hours a rotated token keeps working beside its replacement: by default, and at most (a week). */
export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 168;
/**
 * Days left at which a token's owner is told it is about to expire (`token.expiring`), largest first;
 * the dashboard marks a token that expires within the largest.
 */
export const EXPIRY_NOTICE_DAYS = [7, 1] as const;
/** Most environments a project holds. */
export const MAX_ENVIRONMENTS = 20;

/** Open change requests an environment holds at most. */
export const MAX_OPEN_CHANGE_REQUESTS = 50;

/** Service accounts a project holds at most. */
export const MAX_SERVICE_ACCOUNTS = 50;

/** Characters of a service account's description. */
export const MAX_DESCRIPTION_LENGTH = 500;

/** Days a change request stays open before it expires. */
export const CHANGE_REQUEST_DAYS = 14;

/** Characters of a change request's note, and of the reason an owner applies one without approvals. */
export const MAX_NOTE_LENGTH = 500;

/** The most approvals a protected environment may ask of a change request. */
export const MAX_APPROVALS = 3;
/** The environments a new project starts with. */
export const DEFAULT_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
/** Most live secrets an environment holds. */
export const MAX_SECRETS = 1000;
/** Longest secret value, in UTF-8 bytes. */
export const MAX_SECRET_VALUE_BYTES = 65_536;
/**
 * Most bytes the live secrets of an environment take in its export, counted as the export writes each
 * one (`"NAME":"value",`, escaped): with the answer's frame, an export stays under the 6 MB a Lambda
 * function may answer, whatever its values escape to.
 */
export const MAX_EXPORT_BYTES = 5_000_000;
/**
 * Most changes one PATCH makes: each writes a secret's head and a version (two copies of a value of up
 * to 64 KiB) and its event, and 25 of them stay inside DynamoDB's 4 MB per transaction.
 */
export const MAX_PATCH_CHANGES = 25;
/** Days a deleted secret's versions stay readable to its history and restorable. */
export const DELETED_SECRET_DAYS = 30;
/**
 * Largest body of a route that carries one value: a 64 KiB value escaped as JSON at its worst
 * (`\u0000` for each byte), with room for its field names.
 */
export const SECRET_BODY_BYTES = 512 * 1024;
/**
 * Largest PATCH body: 25 values of 64 KiB as plain text fit, and the body stays within Lambda's 6 MB
 * request even after API Gateway escapes it again into the event.
 */
export const PATCH_BODY_BYTES = 2.5 * 1024 * 1024;
/** Hours a share lives: at least, by default, and at most (30 days). */
export const MIN_SHARE_HOURS = 1;
export const DEFAULT_SHARE_HOURS = 24;
export const MAX_SHARE_HOURS = 720;
/** Times a share may be revealed: by default, and at most. */
export const DEFAULT_SHARE_VIEWS = 1;
export const MAX_SHARE_VIEWS = 100;
/** Most e-mail addresses a share may be limited to. */
export const MAX_SHARE_RECIPIENTS = 20;
/**
 * Longest ciphertext of a share, in base64url characters: a value of `MAX_SECRET_VALUE_BYTES` sealed
 * with its nonce and tag (about 87,420) fits.
 */
export const MAX_SHARE_CIPHERTEXT_LENGTH = 90_000;
/** Live shares a person may hold at once. */
export const SHARE_LIMIT = 100;
/** Largest body of creating a share: the longest ciphertext and twenty of the longest addresses. */
export const SHARE_BODY_BYTES = 128 * 1024;
/** Seconds a client should wait before retrying a 503, from the gateway or a route. */
export const RETRY_AFTER_SECONDS = '1';
/** Webhooks a project holds at most. */
export const MAX_WEBHOOKS = 10;
/** Longest webhook URL (`lambdas/domain/webhook-url.ts` checks the rest: https, public addresses). */
export const MAX_WEBHOOK_URL_LENGTH = 512;
/** Event patterns one webhook names at most. */
export const MAX_WEBHOOK_EVENTS = 20;
/** Deliveries a webhook's list shows: its latest. */
export const WEBHOOK_DELIVERIES_SHOWN = 100;
/** Days a delivery's record is kept before DynamoDB's TTL removes it. */
export const WEBHOOK_DELIVERY_DAYS = 30;
/**
 * Seconds to wait after each failed webhook delivery attempt before the next: from a minute to eight
 * hours, ten attempts in all over about 24 hours (86,160 seconds of waiting); after the tenth fails, the
 * delivery is failed. Deployed, each delay is one queue's visibility timeout (lib/constructs/webhook-delivery.ts).
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300, 900, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800] as const;

/** Live static tokens a service account may hold at once. */
export const MAX_SERVICE_ACCOUNT_TOKENS = 10;

/** Longest life of a service account's static token, in days: no token of a machine lives forever. */
export const MAX_SERVICE_ACCOUNT_TOKEN_DAYS = 365;
