import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { successBody } from '../schemas';
import { accessDenial, SECRET_PARAM_ERRORS, secretParams, secretWrite } from '../secret-routes';

// The contract of delete secret (one module per route: a function bundles only its own).

export const deleteSecretRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}',
  handler: 'delete-secret',
  tag: 'secrets',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: 'Delete a secret: it leaves lists and exports; its versions stay restorable for 30 days',
  success: { status: 200, description: 'Deleted' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.secretNotFound],
    conflict: [ErrorText.environmentProtected],
  },
  paramErrors: SECRET_PARAM_ERRORS,
  successMetric: 'SecretsDeleted',
  // Least work (delete a secret): the caller's membership, the environment and the secret's head,
  // strongly consistent in one call; then, atomically, the membership checked again, the environment's
  // counts lowered, the head marked deleted only if its version is still the one read, a version that
  // records the delete, and the event.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead'], consistent: true },
    secretWrite,
    accessDenial,
  ],
  schemas: () => ({
    params: secretParams(),
    response: successBody(),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
  }),
});
