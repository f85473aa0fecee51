import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { environmentName, projectId, successBody } from '../schemas';

// The contract of delete environment (one module per route: a function bundles only its own).

export const deleteEnvironmentRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/environments/{environment}',
  handler: 'delete-environment',
  tag: 'secrets',
  tokenScope: 'admin',
  summary: 'Delete an environment that holds no live secret (owner and admin)',
  success: { status: 200, description: 'Deleted' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
    conflict: [ErrorText.environmentNotEmpty],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  // Least work (delete an environment): the caller's role, then, atomically, the role checked again,
  // the environment deleted if it holds no live secret, the project's count lowered, and the event.
  // A refusal is explained by reading the environment.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Delete', entity: 'Environment' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    { operation: 'GetItem', entity: 'Environment', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId(), environment: environmentName() }),
    response: successBody(),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, environment: 'staging' } }),
});
