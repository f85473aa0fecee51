import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { SECRET_BODY_BYTES } from '../limits';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, secretMeta, secretValue, versionNumber } from '../schemas';
import { accessDenial, secretParams, secretWrite } from '../secret-routes';

// The contract of put secret (one module per route: a function bundles only its own).

export const putSecretRoute = route({
  method: 'PUT',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}',
  handler: 'put-secret',
  tag: 'secrets',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: 'Write a secret’s value as its next version; `expectedVersion` makes it check-and-set',
  success: {
    status: 200,
    description: 'Updated: the new version, without its value',
    created: 'Created (or written again after a delete): the new version, without its value',
  },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
    conflict: [ErrorText.environmentProtected, ErrorText.secretConflict, ErrorText.secretLimit],
  },
  paramErrors: {
    projectId: ErrorText.projectNotFound,
    environment: ErrorText.environmentNotFound,
    name: ErrorText.validation,
  },
  maxBodyBytes: SECRET_BODY_BYTES,
  successMetric: 'SecretsWritten',
  // Least work (write a secret): the caller's membership, the environment, the secret's head and the
  // project's wrapped data key, strongly consistent in one call; then, atomically, the membership
  // checked again, the environment's counts kept under its limits, the head replaced only if its
  // version is still the one read (check-and-set), the new version put, and the event. A project's
  // first write also updates the project in that transaction, storing its new data key (an update of
  // the project's partition, as the environment's is).
  keyUse: ['Decrypt', 'GenerateDataKey'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead', 'Project'], consistent: true },
    secretWrite,
    accessDenial,
  ],
  schemas: () => ({
    params: secretParams(),
    body: exactly(
      {
        value: secretValue(),
        expectedVersion: z.optional(
          versionNumber(0).check(z.describe('Write only if this is the current version (0: only if there is none)')),
        ),
      },
      'field',
    ),
    response: dataBody(secretMeta()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
    body: { value: SAMPLE_SECRET.value },
  }),
});
