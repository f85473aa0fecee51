/**
 * The forms of the identifiers the API hands out: API tokens, their public ids, project ids and the other
 * resources' ids. The
 * code that mints them (lambdas/domain) and the schemas that describe them share these.
 */

/** Every raw API token starts with this (docs/api.md). */
export const TOKEN_PREFIX = 'svc_live_';
/** Characters of a token's public id, which addresses its stored item. */
export const TOKEN_ID_LENGTH = 12;
/** Characters of a token's secret (about 143 bits), only ever stored as a hash. */
export const TOKEN_SECRET_LENGTH = 24;
/** Characters of a token's CRC32 checksum, which rejects typos and guesses without a database call. */
export const TOKEN_CHECKSUM_LENGTH = 6;
/** Characters of a raw token shown again in lists, for recognition. */
export const DISPLAY_PREFIX_LENGTH = 16;
/** Total length of a raw token. */
export const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_ID_LENGTH + TOKEN_SECRET_LENGTH + TOKEN_CHECKSUM_LENGTH;

/** The alphabet of every generated identifier. */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A raw API token: prefix, then id, secret and checksum, all base62. */
export const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_LENGTH - TOKEN_PREFIX.length}}$`);
/** A token's public id. */
export const TOKEN_ID_PATTERN = new RegExp(`^[0-9A-Za-z]{${TOKEN_ID_LENGTH}}$`);
/** Prefix of a project id. */
export const PROJECT_ID_PREFIX = 'prj_';
/** Random base62 characters after the prefix of a project id. */
export const PROJECT_ID_RANDOM_LENGTH = 16;
/**
 * An environment's name: 1 to 32 characters of `a-z`, `0-9` and `-`, starting and ending with a letter
 * or a digit (it appears in paths and in keys).
 */
export const ENVIRONMENT_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** A secret's name: safe as an environment variable's, and as a key of a JavaScript object (not `__proto__`). */
export const SECRET_NAME_PATTERN = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** `SECRET_NAME_PATTERN` in words, as the API and the `secrets` command say it (lower-case: it follows a colon). */
export const SECRET_NAME_RULE =
  'use 1 to 128 characters of A-Z, a-z, 0-9 and _, not starting with a digit (an environment variable name), other than __proto__';

/** A project id. */
export const PROJECT_ID_PATTERN = new RegExp(`^${PROJECT_ID_PREFIX}[0-9A-Za-z]{${PROJECT_ID_RANDOM_LENGTH}}$`);

/** Prefix of a share's id. */
export const SHARE_ID_PREFIX = 'shr_';
/** Random base62 characters after the prefix of a share's id (about 131 bits: no one guesses one). */
export const SHARE_ID_RANDOM_LENGTH = 22;
/** A share's id. */
export const SHARE_ID_PATTERN = new RegExp(`^${SHARE_ID_PREFIX}[0-9A-Za-z]{${SHARE_ID_RANDOM_LENGTH}}$`);

/** Prefix of a change request's id. */
export const CHANGE_REQUEST_ID_PREFIX = 'chg_';
/** Random base62 characters after the prefix of a change request's id. */
export const CHANGE_REQUEST_ID_RANDOM_LENGTH = 16;
/** A change request's id. */
export const CHANGE_REQUEST_ID_PATTERN = new RegExp(
  `^${CHANGE_REQUEST_ID_PREFIX}[0-9A-Za-z]{${CHANGE_REQUEST_ID_RANDOM_LENGTH}}$`,
);

/** Prefix of a service account's id. */
export const SERVICE_ACCOUNT_ID_PREFIX = 'sa_';
/** Random base62 characters after the prefix of a service account's id. */
export const SERVICE_ACCOUNT_ID_RANDOM_LENGTH = 16;
/** A service account's id. */
export const SERVICE_ACCOUNT_ID_PATTERN = new RegExp(
  `^${SERVICE_ACCOUNT_ID_PREFIX}[0-9A-Za-z]{${SERVICE_ACCOUNT_ID_RANDOM_LENGTH}}$`,
);
/** Prefix of a webhook's id. */
export const WEBHOOK_ID_PREFIX = 'whk_';
/** Random base62 characters after the prefix of a webhook's id. */
export const WEBHOOK_ID_RANDOM_LENGTH = 16;
/** A webhook's id. */
export const WEBHOOK_ID_PATTERN = new RegExp(`^${WEBHOOK_ID_PREFIX}[0-9A-Za-z]{${WEBHOOK_ID_RANDOM_LENGTH}}$`);
/** Prefix of a webhook's signing secret, shown once when it is registered. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Random base62 characters of a webhook's signing secret (about 190 bits). */
export const WEBHOOK_SECRET_RANDOM_LENGTH = 32;
