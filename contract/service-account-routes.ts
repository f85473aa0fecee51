import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { SERVICE_ACCOUNT_ID_PATTERN } from './identifiers';
import { timestamp } from './instant';
import { MAX_DESCRIPTION_LENGTH } from './limits';
import { SERVICE_ACCOUNT_LEVELS } from './roles';
import { apiToken, displayPrefix, environmentName, projectId, scope, tokenId, typeError, updatedBy } from './schemas';
import { firstHiddenCharacter } from './visible-text';

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
