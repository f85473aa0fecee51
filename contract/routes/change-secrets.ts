import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { MAX_PATCH_CHANGES, PATCH_BODY_BYTES } from '../limits';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, secretChange, secretChanges } from '../schemas';
import { accessDenial, environmentParams, secretWrite } from '../secret-routes';

// The contract of change secrets (one module per route: a function bundles only its own).

export const changeSecretsRoute = route({
  method: 'PATCH',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets',
  handler: 'change-secrets',
  tag: 'secrets',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: `Set and delete up to ${MAX_PATCH_CHANGES} secrets at once: all of them, or none`,
  success: { status: 200, description: 'Each secret changed, by name, at its new version' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.secretNotFound],
    conflict: [ErrorText.environmentProtected, ErrorText.secretConflict, ErrorText.secretLimit],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  maxBodyBytes: PATCH_BODY_BYTES,
  successMetric: 'SecretBatchesWritten',
  // Least work (change secrets): the caller's membership, the environment, the project's wrapped data
  // key and the head of each secret named, strongly consistent in one call; then one transaction: the
  // membership checked again, the environment's counts kept under its limits, and per secret its head
  // (only if its version is still the one read), its new version and its event. A project's first
  // write also updates the project in that transaction, storing its new data key (an update of the
  // project's partition, as the environment's is).
  keyUse: ['Decrypt', 'GenerateDataKey'],
  dataAccess: [
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'Project', 'SecretHead'],
      consistent: true,
    },
    secretWrite,
    accessDenial,
  ],
  schemas: () => ({
    params: environmentParams(),
    body: secretChanges(),
    response: dataBody(z.array(secretChange())),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment },
    body: { set: { API_URL: 'https://api.example.com' } },
  }),
});
