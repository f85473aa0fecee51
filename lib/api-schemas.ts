import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '@contract/email';
import type { ErrorText } from '@contract/errors';
import { TOKEN_LENGTH, TOKEN_PREFIX } from '@contract/identifiers';
import { MAX_NAME_LENGTH, MAX_TTL_DAYS } from '@contract/limits';
import { grantableRoles } from '@contract/roles';
import { scopes } from '@contract/scopes';
import type { AddMemberBody } from '@lambdas/http/bodies/add-member';
import type { CreateProjectBody } from '@lambdas/http/bodies/create-project';
import type { CreateTokenBody } from '@lambdas/http/bodies/create-token';
import type { createProject, listMembers, listProjects } from '@lambdas/use-cases/projects';
import type { createToken, listTokens } from '@lambdas/use-cases/tokens';
import * as z from 'zod/mini';

/**
 * Request and response bodies of the API as zod/mini schemas, for the API document only. The
 * handlers check their bodies with lambdas/http/bodies (test/unit/http/bodies.test.ts holds each to
 * its schema here) and build their answers from the use cases. The type checks at the end of this
 * file fail `tsc` when a body or a use case's result and its schema drift apart; the integration
 * suite validates every real response against the document (test/integration/harness.ts).
 */

const BASE62 = '[0-9A-Za-z]';

/** `svc_live_` + 12-character id + 24-character secret + 6-character checksum, all base62. */
export const API_TOKEN_PATTERN = `^${TOKEN_PREFIX}${BASE62}{${TOKEN_LENGTH - TOKEN_PREFIX.length}}$`;

/** A raw API token, as `POST /api/v1/tokens` returns it once. */
export const apiToken = z
  .string()
  .check(
    z.regex(new RegExp(API_TOKEN_PATTERN)),
    z.describe(
      `An API token: \`${TOKEN_PREFIX}\` + 12-character public id + 24-character secret + 6-character CRC32 checksum, all base62 (${TOKEN_LENGTH} characters). Shown once; only a hash is stored.`,
    ),
  );

const timestamp = z
  .string()
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    z.describe('ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z'),
  );
const tokenId = z.string().check(z.regex(new RegExp(`^${BASE62}{12}$`)), z.describe('Public id of an API token'));
const projectId = z.string().check(z.regex(new RegExp(`^prj_${BASE62}{16}$`)), z.describe('Id of a project'));
const scope = z.enum(scopes);
const displayPrefix = z
  .string()
  .check(z.regex(new RegExp(`^${TOKEN_PREFIX}${BASE62}{3,7}$`)), z.describe('First characters of the raw token'));

/** The name of a token or a project, trimmed. */
const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_NAME_LENGTH));

/** Body of `POST /api/v1/tokens`. */
export const createTokenBodySchema = z.strictObject({
  name,
  scopes: z.array(z.enum(scopes)).check(
    z.minLength(1),
    z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
  ),
  ttlDays: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS)))),
});

/** Body of `POST /api/v1/projects`. */
export const createProjectBodySchema = z.strictObject({ name });

/**
 * Body of `POST /api/v1/projects/{projectId}/members`; the e-mail is trimmed, judged by the service's
 * one e-mail rule, then lower-cased.
 */
export const addMemberBodySchema = z.strictObject({
  email: z.pipe(
    z.string().check(z.trim()),
    z.email({ pattern: EMAIL_PATTERN }).check(z.maxLength(MAX_EMAIL_LENGTH), z.toLowerCase()),
  ),
  role: z.enum(grantableRoles),
});

/** `data` of `POST /api/v1/tokens`. */
export const createdToken = z.object({
  id: tokenId,
  name: z.string(),
  rawToken: apiToken,
  displayPrefix,
  scopes: z.array(scope),
  expiresAt: z.nullable(timestamp),
});

/** One element of `GET /api/v1/tokens`. */
export const tokenSummary = z.object({
  id: tokenId,
  name: z.string(),
  displayPrefix,
  scopes: z.array(scope),
  createdAt: timestamp,
  expiresAt: z.nullable(timestamp),
  lastUsedAt: z.nullable(timestamp),
});

/** `data` of `POST /api/v1/projects`. */
export const createdProject = z.object({ projectId, name: z.string(), createdAt: timestamp });

/** One element of `GET /api/v1/projects`. */
export const projectSummary = z.object({
  projectId,
  name: z.string(),
  createdAt: timestamp,
  role: z.enum(['owner', 'admin', 'member']),
});

/** One element of `GET /api/v1/projects/{projectId}/members`. */
export const memberSummary = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
});

/** `{success: true, data}`. */
export const dataBody = <T extends z.ZodMiniType>(data: T) => z.object({ success: z.literal(true), data });

/** `{success: true, message}` with the one message the route answers. */
export const messageBody = (message: string) => z.object({ success: z.literal(true), message: z.literal(message) });

/** `{success: true}`. */
export const successBody = z.object({ success: z.literal(true) });

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

// Compile-time drift checks: each body schema's output type equals its checked body's, and each
// response schema's equals what its use case returns.
type DeepWritable<T> = T extends readonly (infer U)[]
  ? DeepWritable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: DeepWritable<T[K]> }
    : T;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Result<F extends (...args: never[]) => Promise<unknown>> = DeepWritable<Awaited<ReturnType<F>>>;
type Assert<T extends true> = T;

export type SchemasMatchBodies = [
  Assert<Equal<CreateTokenBody, z.output<typeof createTokenBodySchema>>>,
  Assert<Equal<CreateProjectBody, z.output<typeof createProjectBodySchema>>>,
  Assert<Equal<AddMemberBody, z.output<typeof addMemberBodySchema>>>,
];

export type SchemasMatchUseCases = [
  Assert<Equal<Result<typeof createToken>, z.output<typeof createdToken>>>,
  Assert<Equal<Result<typeof listTokens>, z.output<typeof tokenSummary>[]>>,
  Assert<Equal<Result<typeof createProject>, z.output<typeof createdProject>>>,
  Assert<Equal<Result<typeof listProjects>, z.output<typeof projectSummary>[]>>,
  Assert<Equal<Result<typeof listMembers>, z.output<typeof memberSummary>[]>>,
];
