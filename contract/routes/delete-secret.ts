import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { environmentName, projectId, secretName, successBody } from '../schemas';

// The contract of delete secret (one module per route: a function bundles only its own).

export const deleteSecretRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}',
  handler: 'delete-secret',
  tokenScope: 'write:secrets',
  summary: 'Delete a secret: it leaves lists and exports; its versions stay restorable for 30 days',
  success: { status: 200, description: 'Deleted' },
  errors: { notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.secretNotFound] },
  paramErrors: {
    projectId: ErrorText.projectNotFound,
    environment: ErrorText.environmentNotFound,
    name: ErrorText.secretNotFound,
  },
  successMetric: 'SecretsDeleted',
  // Least work (delete a secret): the caller's membership, the environment and the secret's head,
  // strongly consistent in one call; then, atomically, the membership checked again, the environment's
  // counts lowered, the head marked deleted only if its version is still the one read, a version that
  // records the delete, and the event.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead'], consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'Environment' },
        { action: 'Put', entity: 'SecretHead' },
        { action: 'Put', entity: 'SecretVersion' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId(), environment: environmentName(), name: secretName() }),
    response: successBody(),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
  }),
});
