import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { SERVICE_ACCOUNT_ID_PATTERN } from './identifiers';
import { timestamp } from './instant';
import { MAX_DESCRIPTION_LENGTH } from './limits';
import { SERVICE_ACCOUNT_LEVELS } from './roles';
import {
  apiToken,
  dataBody,
  displayPrefix,
  environmentName,
  projectId,
  scope,
  tokenId,
  typeError,
  updatedBy,
} from './schemas';
import { TRUST_RULE_ID_PATTERN } from './trust-rules';
import { firstHiddenCharacter } from './visible-text';
import type { DataCall } from './work';

/**
 * What the routes of service accounts have in common: the ids in the path, the access a service account
 * holds, its description, and a service account as the API answers it.
 */

/** The path parameters of a route about one service account. */
export const serviceAccountParams = () =>
  z.object({
    projectId: projectId(),
    serviceAccountId: z
      .string()
      .check(z.regex(SERVICE_ACCOUNT_ID_PATTERN), z.describe('Id of a service account (`sa_` + 16 base62)')),
  });

/** The 404s malformed ids answer: the same as an unknown project's or service account's. */
export const SERVICE_ACCOUNT_PARAM_ERRORS = {
  projectId: ErrorText.projectNotFound,
  serviceAccountId: ErrorText.serviceAccountNotFound,
} as const;

/** A service account's access: `read` or `write` by environment name (never `none`: it is left out). */
export const serviceAccountAccess = () =>
  z
    .record(environmentName(), z.enum(SERVICE_ACCOUNT_LEVELS, { error: 'Use read or write' }), {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? 'Name environments: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit'
          : 'Send the levels by environment, e.g. {"production": "read"}',
    })
    .check(z.describe('Its access by environment name: read or write; an environment left out, none'));

/** A service account's description: trimmed, visible text, up to `MAX_DESCRIPTION_LENGTH` characters. */
export const description = () =>
  z.string({ error: typeError('Give a description', 'A description is text') }).check(
    z.trim(),
    z.maxLength(MAX_DESCRIPTION_LENGTH, `A description has at most ${MAX_DESCRIPTION_LENGTH} characters`),
    z.refine((text) => firstHiddenCharacter(text) === undefined, {
      error: 'Must not contain invisible, formatting or control characters',
    }),
    z.describe(`Up to ${MAX_DESCRIPTION_LENGTH} characters, trimmed, for people: what the machine is`),
  );

const buildServiceAccount = () =>
  z
    .object({
      id: z.string().check(z.describe('`sa_` + 16 base62 characters')),
      name: z.string(),
      description: z.nullable(z.string()),
      /** Only the environments that exist: access to one deleted since is gone. */
      access: z.record(z.string(), z.enum(SERVICE_ACCOUNT_LEVELS)),
      createdAt: timestamp(),
      createdBy: updatedBy(),
    })
    .check(
      z.meta({ id: 'ServiceAccount' }),
      z.describe('A machine identity of a project: it belongs to the project, not to the person who made it'),
    );
let serviceAccountSchema: ReturnType<typeof buildServiceAccount> | undefined;

/** A service account as the API answers it (the API document names it once). */
export const serviceAccount = () => {
  serviceAccountSchema ??= buildServiceAccount();
  return serviceAccountSchema;
};

/** The path parameters of a route about one token of a service account. */
export const serviceAccountTokenParams = () => z.extend(serviceAccountParams(), { tokenId: tokenId() });

/** The 404s malformed ids answer on a route about one token of a service account. */
export const SERVICE_ACCOUNT_TOKEN_PARAM_ERRORS = {
  ...SERVICE_ACCOUNT_PARAM_ERRORS,
  tokenId: ErrorText.tokenNotFound,
} as const;

/** A new token of a service account's as the answer shows it once: with its raw secret. */
export const newServiceAccountTokenFields = () => ({
  id: tokenId(),
  name: z.string(),
  rawToken: apiToken(),
  displayPrefix: displayPrefix(),
  scopes: z
    .array(scope())
    .check(
      z.describe(
        'What the service account’s access gives its tokens now: read:secrets, and write:secrets where it writes',
      ),
    ),
  expiresAt: timestamp(),
  allowedIps: z.nullable(z.array(z.string()).check(z.describe('Addresses it works from; null: its creating address'))),
});

const buildServiceAccountToken = () =>
  z
    .object({
      id: tokenId(),
      name: z.string(),
      displayPrefix: displayPrefix(),
      createdAt: timestamp(),
      expiresAt: timestamp(),
      lastUsedAt: z.nullable(timestamp()),
      lastUsedIp: z.nullable(z.string()),
      allowedIps: z.nullable(z.array(z.string())),
      replacedBy: z.nullable(tokenId()),
      stopsAt: z.nullable(timestamp()),
    })
    .check(
      z.meta({ id: 'ServiceAccountToken' }),
      z.describe('A static token of a service account, without its secret'),
    );
let serviceAccountTokenSchema: ReturnType<typeof buildServiceAccountToken> | undefined;

/** A service account's token as its list shows it (the API document names it once). */
export const serviceAccountToken = () => {
  serviceAccountTokenSchema ??= buildServiceAccountToken();
  return serviceAccountTokenSchema;
};

/** The path parameters of a route about one trust rule of a service account. */
export const trustRuleParams = () =>
  z.extend(serviceAccountParams(), {
    ruleId: z.string().check(z.regex(TRUST_RULE_ID_PATTERN), z.describe('Id of a trust rule (`tr_` + 16 base62)')),
  });

/** The 404s malformed ids answer on a route about one trust rule. */
export const TRUST_RULE_PARAM_ERRORS = {
  ...SERVICE_ACCOUNT_PARAM_ERRORS,
  ruleId: ErrorText.trustRuleNotFound,
} as const;

/** Shortest and longest life of a token a sign-in answers, and its default, in seconds. */
export const SIGN_IN_TTL_SECONDS = { min: 60, default: 15 * 60, max: 60 * 60 } as const;

/** What every sign-in body names: the service account, and how long the token it gets should live. */
export const signInFields = () => ({
  serviceAccountId: z
    .string({ error: typeError('Give the service account’s id', 'A service account id is text') })
    .check(z.maxLength(64, 'Not a service account id'), z.describe('The service account to sign in as (`sa_…`)')),
  ttlSeconds: z.optional(
    z
      .int(`A whole number of seconds from ${SIGN_IN_TTL_SECONDS.min} to ${SIGN_IN_TTL_SECONDS.max}`)
      .check(
        z.gte(SIGN_IN_TTL_SECONDS.min, `A token lives at least ${SIGN_IN_TTL_SECONDS.min} seconds`),
        z.lte(SIGN_IN_TTL_SECONDS.max, `A token lives at most ${SIGN_IN_TTL_SECONDS.max} seconds`),
        z.describe(`Seconds the token lives; omitted: ${SIGN_IN_TTL_SECONDS.default}`),
      ),
  ),
});

/** A sign-in's answer: a `svc_live_` token of the service account's, bound to the signing-in address. */
export const signInAnswer = () =>
  dataBody(
    z.object({
      token: apiToken(),
      expiresAt: timestamp(),
    }),
  );

/**
 * What a sign-in does to the table, either kind: the service account's rules (they name its project),
 * then the service account; then, atomically, the token (its hash), the service account still there,
 * and the event. A refusal of a service account that exists writes its mark for the reason and the
 * event, at most once a minute per reason.
 */
export const SIGN_IN_DATA_ACCESS = [
  { operation: 'GetItem', entity: 'TrustRules', consistent: true },
  { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
  {
    operation: 'TransactWriteItems',
    actions: [
      { action: 'Put', entity: 'Token' },
      { action: 'ConditionCheck', entity: 'ServiceAccount' },
      { action: 'Put', entity: 'ProjectAuditEvent' },
    ],
  },
  {
    operation: 'TransactWriteItems',
    actions: [
      { action: 'Update', entity: 'TrustRules' },
      { action: 'Put', entity: 'ProjectAuditEvent' },
    ],
    beyondFloor: true,
  },
] as const satisfies readonly DataCall[];
