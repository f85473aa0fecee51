import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, rawQuery, secretWithValue } from '../schemas';
import { SECRET_PARAM_ERRORS, secretParams } from '../secret-routes';

// The contract of get secret (one module per route: a function bundles only its own).

/** A version in a query: a whole number from 1, as its text. */
const VERSION_PATTERN = /^[1-9]\d{0,9}$/;

export const getSecretRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}',
  handler: 'get-secret',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary:
    'Read one secret’s value, current or of `?version=N`, its references resolved (`?raw=true`: as stored): a recorded read',
  success: { status: 200, description: 'The secret and its value; the read is in the audit trail' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    conflict: [ErrorText.referenceUnresolved],
    notFound: [
      ErrorText.projectNotFound,
      ErrorText.environmentNotFound,
      ErrorText.secretNotFound,
      ErrorText.secretVersionNotFound,
    ],
  },
  paramErrors: SECRET_PARAM_ERRORS,
  // Least work (read a secret): the caller's membership, the environment, the secret's head (which holds
  // the current value) and the project's wrapped data key, strongly consistent in one call; the data
  // key from the function's cache (a KMS Decrypt at most once per project per five minutes); then the
  // `secret.read` event, written before the value is answered. An older version is one more read. A value
  // with references reads them by levels, one BatchGetItem a level (the referenced heads, and the caller's
  // membership, the project and the environment of each met for the first time), and records one more
  // `secret.read` in each other environment read.
  keyUse: ['Decrypt'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead', 'Project'], consistent: true },
    { operation: 'PutItem', entity: 'ProjectAuditEvent' },
    { operation: 'GetItem', entity: 'SecretVersion', consistent: true, beyondFloor: true },
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'SecretHead', 'Project'],
      consistent: true,
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    params: secretParams(),
    query: exactly(
      {
        version: z.optional(
          z
            .string()
            .check(
              z.regex(VERSION_PATTERN, 'A version is a whole number from 1'),
              z.describe('The version to read; default: the current one'),
            ),
        ),
        raw: rawQuery(),
      },
      'query parameter',
    ),
    response: dataBody(secretWithValue()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
  }),
});
