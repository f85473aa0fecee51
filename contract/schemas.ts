import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
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
import { MAX_NAME_LENGTH } from './limits';
import { projectRoles } from './roles';
import { scopes } from './scopes';

/**
 * The pieces the route contracts (./routes.ts) build their zod/mini schemas from. Every schema is
 * built inside a route's `schemas()`, on first use, so that a function builds its own route's
 * schemas only, and only when its first request needs them.
 */

let configured = false;
/** zod/mini speaks no language until told: its issues become the English `details` of a 400. */
export const configureZod = (): void => {
  if (configured) return;
  z.config(en());
  configured = true;
};

/** A raw API token, as `POST /api/v1/tokens` returns it once; the API document's component `ApiToken`. */
export const apiToken = () =>
  z
    .string()
    .check(
      z.meta({ id: 'ApiToken' }),
      z.regex(TOKEN_PATTERN),
      z.describe(
        `An API token: \`${TOKEN_PREFIX}\` + 12-character public id + 24-character secret + 6-character CRC32 checksum, all base62 (${TOKEN_LENGTH} characters). Shown once; only a hash is stored.`,
      ),
    );

/** ISO 8601 UTC with milliseconds. */
export const timestamp = () =>
  z
    .string()
    .check(
      z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      z.describe('ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z'),
    );

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

/** The name of a token or a project, trimmed. */
export const name = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_NAME_LENGTH));

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
