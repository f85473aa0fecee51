import * as z from 'zod/mini';
import { auditEventSchema, auditEventTypes, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './email';
import type { ErrorText } from './errors';
import {
  DISPLAY_PREFIX_LENGTH,
  ENVIRONMENT_NAME_PATTERN,
  PROJECT_ID_PATTERN,
  SECRET_NAME_PATTERN,
  SECRET_NAME_RULE,
  TOKEN_ID_PATTERN,
  TOKEN_LENGTH,
  TOKEN_PATTERN,
  TOKEN_PREFIX,
} from './identifiers';
import { timestamp } from './instant';
import {
  BROADEST_ALLOWED_PREFIX,
  DEFAULT_GRACE_HOURS,
  MAX_ALLOWED_IPS,
  MAX_GRACE_HOURS,
  MAX_NAME_LENGTH,
  MAX_PATCH_CHANGES,
  MAX_SECRET_VALUE_BYTES,
} from './limits';
import { accessLevels, projectRoles } from './roles';
import { scopes } from './scopes';
import { firstHiddenCharacter } from './visible-text';

/**
 * The pieces the route contracts (./routes.ts) build their zod/mini schemas from. Every schema is
 * built inside a route's `schemas()`, on first use, so that a function builds its own route's
 * schemas only, and only when its first request needs them.
 */

/**
 * The message of a field's type rule: `missing` when the field is absent, `wrongType` when it holds
 * another kind of value. Each rule of a request's schemas carries its own message, written for
 * people where the rule is declared (zod's `error` option); zod/mini brings no words of its own.
 */
export const typeError =
  (missing: string, wrongType: string) =>
  (issue: { readonly input?: unknown }): string =>
    issue.input === undefined ? missing : wrongType;

/**
 * A JSON object of exactly these fields (or query parameters): anything else than an object, and a
 * field it does not know, are told in words that list the ones it takes.
 */
export const exactly = <Shape extends z.core.$ZodLooseShape>(shape: Shape, noun: 'field' | 'query parameter') => {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: the ${noun}s are ${known}`
        : `Send a JSON object with the ${noun}s ${known}`,
  });
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

/** An environment access level (`none`, `read`, `write`). */
export const accessLevel = () => z.enum(accessLevels, { error: 'Use none, read or write' });

/** A member of a project, as the member list and an access change answer them. */
export const member = () =>
  z.object({
    userId: z.string(),
    email: z.string(),
    role: role(),
    /** Their access to each environment of the project (owner and admins: `write` everywhere). */
    access: accessByEnvironment(),
  });

/**
 * Who added the caller to a project, as the notice of a membership not opened yet shows them: their user
 * id and the e-mail their request carried (a session's, or the one their token was created under; null
 * for a token older than that record).
 */
export const adder = () =>
  z
    .object({ userId: z.string(), email: z.nullable(z.string()) })
    .check(z.describe('Who added the caller: their user id and their e-mail when they did'));

/** Access levels by environment name. */
export const accessByEnvironment = () =>
  z
    .record(environmentName(), accessLevel(), {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? 'Name environments: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit'
          : 'Send the levels by environment, e.g. {"production": "read"}',
    })
    .check(z.describe('Access levels by environment name'));

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
  projects: tokenProjects(),
});

const buildTokenProject = () =>
  z
    .object({
      projectId: projectId(),
      environments: z.nullable(
        z.array(z.string()).check(z.describe("The environments it reaches; null: all of the project's")),
      ),
    })
    .check(z.meta({ id: 'TokenProject' }), z.describe('A project a limited token reaches'));
let tokenProjectSchema: ReturnType<typeof buildTokenProject> | undefined;

/** A token's limit to projects and environments, as answers show it (the API document names it once). */
export const tokenProjects = () => {
  tokenProjectSchema ??= buildTokenProject();
  return z.nullable(z.array(tokenProjectSchema)).check(z.describe("The projects it reaches; null: all of its owner's"));
};

/** The name of a token or a project: trimmed, then shown as it is stored (./visible-text.ts). */
export const name = () =>
  z.string({ error: typeError('Give a name', 'A name is text') }).check(
    z.trim(),
    z.minLength(1, 'Give a name: it is empty or only spaces'),
    z.maxLength(MAX_NAME_LENGTH, `A name has at most ${MAX_NAME_LENGTH} characters`),
    z.refine((text) => firstHiddenCharacter(text) === undefined, {
      error: (issue) => {
        const found = firstHiddenCharacter(String(issue.input));
        return `Must not contain invisible, formatting or control characters, line or paragraph separators or unpaired surrogates, which make a name look like another${found ? `: ${found.codePoint} at character ${found.position}` : ''}`;
      },
    }),
    z.describe(
      `1 to ${MAX_NAME_LENGTH} characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it)`,
    ),
  );

/** An environment's name (`ENVIRONMENT_NAME_PATTERN`). */
export const environmentName = () =>
  z
    .string({ error: typeError('Give an environment name', 'An environment name is text') })
    .check(
      z.regex(
        ENVIRONMENT_NAME_PATTERN,
        'Use 1 to 32 characters of a-z, 0-9 and -, starting and ending with a letter or a digit',
      ),
      z.describe('An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit'),
    );

const buildEnvironment = () =>
  z
    .object({
      name: z.string(),
      createdAt: timestamp(),
      /** Its live secrets. */
      secretCount: z.int(),
      /** The caller's access to it. */
      access: accessLevel(),
      /** Whether its secrets change only through change requests. */
      protected: z.boolean(),
      /** The approvals a change request needs there (1 to 3). */
      approvals: z.int(),
      /** The access a plain member has there unless an owner or admin set theirs. */
      defaultAccess: accessLevel(),
    })
    .check(z.meta({ id: 'Environment' }), z.describe('An environment of a project'));
let environmentSchema: ReturnType<typeof buildEnvironment> | undefined;

/** An environment as the API answers it: one schema, built on first use (the API document names it once). */
export const environment = () => {
  environmentSchema ??= buildEnvironment();
  return environmentSchema;
};

/** A secret's name (`SECRET_NAME_PATTERN`). */
export const secretName = () =>
  z
    .string({ error: typeError('Give a secret name', 'A secret name is text') })
    .check(
      z.regex(SECRET_NAME_PATTERN, `U${SECRET_NAME_RULE.slice(1)}`),
      z.describe('A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit'),
    );

/** Half a surrogate pair: no character, so no UTF-8 either. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Bytes of `text` in UTF-8, counted without encoding it. */
const utf8Bytes = (text: string): number => {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
};

/** A secret's value: any UTF-8 text of at most `MAX_SECRET_VALUE_BYTES` bytes. */
export const secretValue = () =>
  z.string({ error: typeError('Give a value', 'A value is text') }).check(
    z.refine((value) => !LONE_SURROGATE.test(value), 'A value must be UTF-8 text: it holds half a surrogate pair'),
    z.refine(
      (value) => utf8Bytes(value) <= MAX_SECRET_VALUE_BYTES,
      `A value has at most ${MAX_SECRET_VALUE_BYTES} bytes in UTF-8`,
    ),
    z.describe(`Any UTF-8 text of at most ${MAX_SECRET_VALUE_BYTES} bytes`),
  );

/** A version number a request names: a whole number from 0 (`expectedVersion`: absent or deleted) up. */
export const versionNumber = (least: 0 | 1) =>
  z
    .int({ error: typeError('Give a version number', 'A version is a whole number') })
    .check(z.gte(least, `A version is a whole number from ${least}`), z.lte(2 ** 31 - 1, 'No such version'));

const buildUpdatedBy = () =>
  z
    .object({ userId: z.string(), email: z.nullable(z.string()) })
    .check(z.meta({ id: 'Person' }), z.describe('Who wrote a version: a person, also through one of their tokens'));
let updatedBySchema: ReturnType<typeof buildUpdatedBy> | undefined;
export const updatedBy = () => {
  updatedBySchema ??= buildUpdatedBy();
  return updatedBySchema;
};

/** The fields every answer about a secret's version has. */
const versionFields = () => ({ version: z.int(), updatedAt: timestamp(), updatedBy: updatedBy() });

const buildSecretMeta = () =>
  z
    .object({ name: z.string(), ...versionFields() })
    .check(z.meta({ id: 'Secret' }), z.describe('A secret: its current version, without its value'));
let secretMetaSchema: ReturnType<typeof buildSecretMeta> | undefined;

/** A secret as lists and writes answer it: its current version, never its value. */
export const secretMeta = () => {
  secretMetaSchema ??= buildSecretMeta();
  return secretMetaSchema;
};

/** A secret with its value, as a read answers it, and the references its stored value holds. */
export const secretWithValue = () =>
  z
    .object({
      name: z.string(),
      value: z.string(),
      ...versionFields(),
      references: z
        .array(
          z.object({
            reference: z.string().check(z.describe('The reference as the value writes it')),
            projectId: z.string(),
            environment: z.string(),
            name: z.string(),
          }),
        )
        .check(z.describe('Each reference the stored value holds, once, in order, with the secret it names')),
    })
    .check(z.describe('A secret and its value'));

/** One version in a secret's history: `deleted` when it is the delete. */
export const secretVersion = () => z.object({ ...versionFields(), deleted: z.boolean() });

/** One secret a PATCH changed: its new version, `deleted` when the change deleted it. */
export const secretChange = () => z.object({ name: z.string(), ...versionFields(), deleted: z.boolean() });

/**
 * A map keyed by secret names. zod leaves a `__proto__` key out of a record without a word (it would
 * replace the result's prototype), so such a key is refused here first, as no secret may have that name.
 */
export const byName = <V extends z.ZodMiniType>(value: V) =>
  z.pipe(
    z
      .unknown()
      .check(
        z.refine(
          (input) => typeof input !== 'object' || input === null || !Object.hasOwn(input, '__proto__'),
          'A secret may not be named __proto__',
        ),
      ),
    z.record(secretName(), value, {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `Not a secret name: ${SECRET_NAME_RULE}`
          : 'Send an object of secret names, e.g. {"API_KEY": …}',
    }),
  );

/** Versions by secret name, each a whole number from 0 (`expectedVersions`: 0 is absent or deleted). */
export const versionsByName = () => byName(versionNumber(0));

/** A PATCH body: the values to set and the names to delete, each at most once, with their expected versions. */
export const secretChanges = () =>
  exactly(
    {
      set: z.optional(byName(secretValue())),
      delete: z.optional(z.array(secretName(), { error: 'Send the names to delete as a list, e.g. ["OLD_KEY"]' })),
      expectedVersions: z.optional(versionsByName()),
    },
    'field',
  ).check(
    z.refine(
      (body) => {
        const count = Object.keys(body.set ?? {}).length + (body.delete?.length ?? 0);
        return count >= 1 && count <= MAX_PATCH_CHANGES;
      },
      { message: `Make 1 to ${MAX_PATCH_CHANGES} changes: set and delete together`, path: ['set'] },
    ),
    z.refine(
      (body) => {
        const deleted = body.delete ?? [];
        return new Set(deleted).size === deleted.length && !deleted.some((name) => Object.hasOwn(body.set ?? {}, name));
      },
      { message: 'Name each secret once: set or delete it, not both, and delete it once', path: ['delete'] },
    ),
    z.refine(
      (body) =>
        Object.keys(body.expectedVersions ?? {}).every(
          (name) => Object.hasOwn(body.set ?? {}, name) || (body.delete ?? []).includes(name),
        ),
      { message: 'Expect versions only of the secrets this request sets or deletes', path: ['expectedVersions'] },
    ),
  );

/**
 * An e-mail address by the service's one rule (./email.ts), judged on the trimmed text before it is
 * lower-cased.
 */
export const email = () =>
  z
    .string({ error: typeError('Give an e-mail address', 'An e-mail address is text') })
    .check(
      z.trim(),
      z.regex(EMAIL_PATTERN, 'Not an e-mail address: printable ASCII with one @ between a name and a domain'),
      z.maxLength(MAX_EMAIL_LENGTH, `An e-mail address has at most ${MAX_EMAIL_LENGTH} characters`),
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

/**
 * `{success: false, error}` with exactly the texts this status can carry (+ `details` on the errors
 * that carry them, `ERRORS_WITH_DETAILS`).
 */
export const errorBody = (texts: readonly [ErrorTextValue, ...ErrorTextValue[]], withDetails: boolean) =>
  z.object({
    success: z.literal(false),
    error: texts.length === 1 ? z.literal(texts[0]) : z.enum(texts),
    ...(withDetails && {
      details: z.optional(
        z
          .array(z.object({ path: z.string(), message: z.string() }))
          .check(
            z.describe(
              'With "Validation failed": each failed field; with "Environment is protected": the change-request route',
            ),
          ),
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
export const trailQuery = () => {
  const notACursor = 'Not a cursor of this trail: send the nextCursor of the page before, as it came';
  const notAnInstant = 'Not an instant: write it in ISO 8601 UTC, e.g. 2026-11-21T23:23:35Z';
  return exactly(
    {
      limit: z.optional(
        z
          .string()
          .check(
            z.regex(PAGE_SIZE_PATTERN, `A whole number of events from 1 to ${MAX_AUDIT_PAGE}`),
            z.describe(`Events per page, 1 to ${MAX_AUDIT_PAGE}; default ${DEFAULT_AUDIT_PAGE}`),
          ),
      ),
      cursor: z.optional(
        z
          .string()
          .check(
            z.minLength(1, notACursor),
            z.maxLength(MAX_CURSOR_LENGTH, notACursor),
            z.describe('`nextCursor` of the previous page'),
          ),
      ),
      type: z.optional(
        z
          .enum(auditEventTypes, `Not an event type: the types are ${auditEventTypes.join(', ')}`)
          .check(z.describe('Only events of this type')),
      ),
      since: z.optional(
        z
          .string()
          .check(z.regex(INSTANT_PATTERN, notAnInstant), z.describe('Only events at or after this time, ISO 8601 UTC')),
      ),
      until: z.optional(
        z
          .string()
          .check(
            z.regex(INSTANT_PATTERN, notAnInstant),
            z.describe('Only events at or before this time, ISO 8601 UTC'),
          ),
      ),
    },
    'query parameter',
  );
};

/** One page of a trail, newest first, with the cursor of the next page (null on the last). */
export const trailPage = () =>
  z.object({
    success: z.literal(true),
    data: z.array(auditEventSchema()),
    nextCursor: z.nullable(z.string()),
  });

/** `?raw=true`: values as stored, their references not resolved (`false`, the default: resolved). */
export const rawQuery = () =>
  z.optional(
    z
      .string()
      .check(
        z.regex(/^(true|false)$/, 'Use true or false'),
        z.describe('true: values as stored, references not resolved (and no referenced secret read)'),
      ),
  );

/** The addresses and networks a new token works from, as its creator lists them (the use case judges breadth and overlap). */
export const allowedIps = () =>
  z
    .array(
      z
        .string('An address or CIDR is text, e.g. "203.0.113.7"')
        .check(z.maxLength(64, 'Not an IP address or CIDR: longer than any')),
      'Send the addresses as a list, e.g. ["203.0.113.7", "10.0.0.0/24"]',
    )
    .check(
      z.minLength(1, 'List at least one address, or leave allowedIps out for the creating address'),
      z.maxLength(MAX_ALLOWED_IPS, `List at most ${MAX_ALLOWED_IPS} addresses or CIDRs`),
      z.describe(
        `Addresses or CIDRs the token works from (1 to ${MAX_ALLOWED_IPS}, none broader than a /${BROADEST_ALLOWED_PREFIX[4]} of IPv4 or a /${BROADEST_ALLOWED_PREFIX[6]} of IPv6, IPv4 embedded in IPv6 counted as IPv4, none overlapping); omitted: the creating address`,
      ),
    );

/** What a rotation of a token takes: how long the old one works on. */
export const rotationBody = () =>
  z.optional(
    exactly(
      {
        graceHours: z.optional(
          z
            .int(`A whole number of hours from 0 to ${MAX_GRACE_HOURS}`)
            .check(
              z.gte(0, 'The grace period is at least 0 hours: 0 stops the old token now'),
              z.lte(MAX_GRACE_HOURS, `The grace period is at most ${MAX_GRACE_HOURS} hours`),
              z.describe(
                `Hours the old token keeps working (0: it stops now; at most its own expiry); omitted: ${DEFAULT_GRACE_HOURS}`,
              ),
            ),
        ),
      },
      'field',
    ),
  );
