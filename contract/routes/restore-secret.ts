import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, secretMeta, versionNumber } from '../schemas';
import { accessDenial, SECRET_PARAM_ERRORS, secretParams, secretWrite } from '../secret-routes';

// The contract of restore secret (one module per route: a function bundles only its own).

export const restoreSecretRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore',
  handler: 'restore-secret',
  tag: 'secrets',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: 'Write an earlier version’s value as the next version (also undeletes); needs no read access',
  success: { status: 200, description: 'The new version, without its value' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [
      ErrorText.projectNotFound,
      ErrorText.environmentNotFound,
      ErrorText.secretNotFound,
      ErrorText.secretVersionNotFound,
    ],
    conflict: [ErrorText.environmentProtected, ErrorText.secretConflict, ErrorText.secretLimit],
  },
  paramErrors: SECRET_PARAM_ERRORS,
  successMetric: 'SecretsRestored',
  // Least work (restore a version): the caller's membership, the environment, the secret's head and
  // the project's wrapped data key, strongly consistent in one call, and the version to restore; then,
  // atomically, as a write: the membership checked again, the environment's counts kept under its
  // limits, the head replaced only if its version is still the one read, the new version, the event.
  keyUse: ['Decrypt', 'GenerateDataKey'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead', 'Project'], consistent: true },
    { operation: 'GetItem', entity: 'SecretVersion', consistent: true },
    secretWrite,
    accessDenial,
  ],
  schemas: () => ({
    params: secretParams(),
    body: exactly({ version: versionNumber(1) }, 'field'),
    response: dataBody(secretMeta()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
    body: { version: 1 },
  }),
});
