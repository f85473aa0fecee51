import * as z from 'zod/mini';
import { auditEventSchema, auditEventTypes, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './email';
import type { ErrorText } from './errors';
import {
  DISPLAY_PREFIX_LENGTH,
  PROJECT_ID_PATTERN,
  TOKEN_ID_PATTERN,
  TOKEN_LENGTH,
  TOKEN_PATTERN,
  TOKEN_PREFIX,
} from './identifiers';
import { timestamp } from './instant';
import { MAX_NAME_LENGTH } from './limits';
import { projectRoles } from './roles';
import { scopes } from './scopes';

/**
 * The pieces the route contracts (./routes.ts) build their zod/mini schemas from. Every schema is
 * built inside a route's `schemas()`, on first use, so that a function builds its own route's
 * schemas only, and only when its first request needs them.
 */

/** What a value is, in an issue's words: `null`, `array`, or its `typeof`. */
const kindOf = (input: unknown): string => (input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input);

/** The unit a size check of this origin counts. */
const UNITS: Readonly<Record<string, string>> = { string: 'characters', array: 'items' };

/**
 * The English of a validation detail, for the issues the contracts' schemas raise. Written here
 * rather than zod's English locale, which would grow every route's bundle (the bench's bundle size
 * target; docs/performance.md has the figure); the texts follow the locale's.
 */
export const issueMessage = (issue: z.core.$ZodRawIssue): string => {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${kindOf(issue.input)}`;
    case 'invalid_value':
      return `Invalid option: expected one of ${issue.values.map((value) => JSON.stringify(value)).join('|')}`;
    case 'too_big':
    case 'too_small': {
      const [word, bound, sign] =
        issue.code === 'too_big' ? ['big', issue.maximum, '<'] : ['small', issue.minimum, '>'];
      const unit = UNITS[issue.origin];
      const relation = `${issue.inclusive ? `${sign}=` : sign}${bound}`;
      return `Too ${word}: expected ${issue.origin} ${unit ? `to have ${relation} ${unit}` : `to be ${relation}`}`;
    }
    case 'invalid_format':
      return issue.format === 'regex'
        ? `Invalid string: must match pattern ${issue.pattern}`
        : `Invalid ${issue.format}`;
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    default:
      return 'Invalid input';
  }
};

let configured = false;
/** zod/mini speaks no language until told: its issues become the English `details` of a 400. */
export const configureZod = (): void => {
  if (configured) return;
  z.config({ localeError: issueMessage });
  configured = true;
};

let apiTokenSchema: z.ZodMiniString<string> | undefined;
/**
 * A raw API token, as creating or rotating a token returns it once; the API document's component
 * `ApiToken`, built once so that both routes name the one component.
 */
export const apiToken = () => {
  apiTokenSchema ??= z
    .string()
    .check(
      z.meta({ id: 'ApiToken' }),
      z.regex(TOKEN_PATTERN),
      z.describe(
        `An API token: \`${TOKEN_PREFIX}\` + 12-character public id + 24-character secret + 6-character CRC32 checksum, all base62 (${TOKEN_LENGTH} characters). Shown once; only a hash is stored.`,
      ),
    );
  return apiTokenSchema;
};

export { timestamp };

/** A token's public id. */
export const tokenId = () => z.string().check(z.regex(TOKEN_ID_PATTERN), z.describe('Public id of an API token'));

/** A project id. */
export const projectId = () => z.string().check(z.regex(PROJECT_ID_PATTERN), z.describe('Id of a project'));

/** One API token scope. */
export const scope = () => z.enum(scopes);

/** A project role as lists show it. */
export const role = () => z.enum(projectRoles);

/** The first characters of a raw token. */
export const displayPrefix = () =>
  z
    .string()
    .check(
      z.regex(new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${DISPLAY_PREFIX_LENGTH - TOKEN_PREFIX.length}}$`)),
      z.describe('First characters of the raw token'),
    );

/** A new token's fields as creating or rotating one answers them, its raw token shown this once. */
export const newTokenFields = () => ({
  id: tokenId(),
  name: z.string(),
  rawToken: apiToken(),
  displayPrefix: displayPrefix(),
  scopes: z.array(scope()),
  expiresAt: z.nullable(timestamp()),
});

/**
 * What a name may not hold: control characters (C0, DEL, C1), line and paragraph separators, the
 * bidirectional marks, embeddings, overrides and isolates (U+202E shows `fdp.exe` as `exe.pdf`), and
 * half a surrogate pair, which is no character at all. Each would make a list or a terminal show
 * something else than what is stored. Joiners stay: scripts such as Persian and emoji need them.
 */
const NAME_PATTERN = /^[^\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Cs}]*$/u;

/** The name of a token or a project, trimmed, shown as it is stored. */
export const name = () =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(MAX_NAME_LENGTH),
      z.regex(
        NAME_PATTERN,
        'Must not contain control characters, line or paragraph separators, bidirectional formatting characters or unpaired surrogates',
      ),
    );

/**
 * An e-mail address by the service's one rule (./email.ts), judged on the trimmed text before it is
 * lower-cased.
 */
export const email = () =>
  z
    .string()
    .check(
      z.trim(),
      z.regex(EMAIL_PATTERN, 'Invalid email address'),
      z.maxLength(MAX_EMAIL_LENGTH),
      z.toLowerCase(),
      z.describe('An e-mail address: printable ASCII, one @, at most 254 characters'),
    );

/** `{success: true, data}`. */
export const dataBody = <T extends z.ZodMiniType>(data: T) => z.object({ success: z.literal(true), data });

/** `{success: true, message}` with the one message the route answers. */
export const messageBody = <M extends string>(message: M) =>
  z.object({ success: z.literal(true), message: z.literal(message) });

/** `{success: true}`. */
export const successBody = () => z.object({ success: z.literal(true) });

/** The contract's error texts. */
export type ErrorTextValue = (typeof ErrorText)[keyof typeof ErrorText];

/** `{success: false, error}` with exactly the texts this status can carry (+ `details` on a validation error). */
export const errorBody = (texts: readonly [ErrorTextValue, ...ErrorTextValue[]], withDetails: boolean) =>
  z.object({
    success: z.literal(false),
    error: texts.length === 1 ? z.literal(texts[0]) : z.enum(texts),
    ...(withDetails && {
      details: z.optional(
        z.array(z.object({ path: z.string(), message: z.string() })).check(z.describe('With "Validation failed" only')),
      ),
    }),
  });

/** An instant in a query: ISO 8601 UTC, to the second or the millisecond. */
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Longest cursor a trail accepts. A cursor is the base64 of the last event's keys and its query's
 * filters: at most about 1,100 bytes of JSON (1,400 characters) when the user id is the longest
 * subject the authorizer takes, 255 characters of up to 3 UTF-8 bytes each.
 */
const MAX_CURSOR_LENGTH = 2048;

/** A page size in a query: a whole number from 1 to 100, as its text. */
const PAGE_SIZE_PATTERN = /^(100|[1-9]\d?)$/;

/**
 * The query of a trail: page size, the cursor of the next page, and filters. Values stay text, checked
 * by pattern only (the use case reads them): coercing and date-parsing schemas would put more of zod
 * into every function, since all share the contracts module (`npm run bench`, bundle size).
 */
export const trailQuery = () =>
  z.strictObject({
    limit: z.optional(
      z
        .string()
        .check(
          z.regex(PAGE_SIZE_PATTERN),
          z.describe(`Events per page, 1 to ${MAX_AUDIT_PAGE}; default ${DEFAULT_AUDIT_PAGE}`),
        ),
    ),
    cursor: z.optional(
      z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH), z.describe('`nextCursor` of the previous page')),
    ),
    type: z.optional(z.enum(auditEventTypes).check(z.describe('Only events of this type'))),
    since: z.optional(
      z.string().check(z.regex(INSTANT_PATTERN), z.describe('Only events at or after this time, ISO 8601 UTC')),
    ),
    until: z.optional(
      z.string().check(z.regex(INSTANT_PATTERN), z.describe('Only events at or before this time, ISO 8601 UTC')),
    ),
  });

/** One page of a trail, newest first, with the cursor of the next page (null on the last). */
export const trailPage = () =>
  z.object({
    success: z.literal(true),
    data: z.array(auditEventSchema()),
    nextCursor: z.nullable(z.string()),
  });
