/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Longest token or project name. */
export const MAX_NAME_LENGTH = 100;
/** Longest token lifetime in days (about ten years). */
export const MAX_TTL_DAYS = 3650;
/** Lifetime of a token created without `ttlDays`. */
export const DEFAULT_TTL_DAYS = 30;
