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
/** The environments a new project starts with. */
export const DEFAULT_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
/** Seconds a client should wait before retrying a 503, from the gateway or a route. */
export const RETRY_AFTER_SECONDS = '1';
