import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, environment, environmentName, exactly, projectId } from '../schemas';

// The contract of create environment (one module per route: a function bundles only its own).

export const createEnvironmentRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments',
  handler: 'create-environment',
  tag: 'secrets',
  tokenScope: 'admin',
  summary: 'Add an environment to a project (owner and admin)',
  success: { status: 201, description: 'The new environment, empty' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound],
    conflict: [ErrorText.environmentExists, ErrorText.environmentLimit],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (create an environment): the caller's role, then, atomically, the role checked again,
  // the environment put if absent, the project's count of environments raised under its limit, and
  // the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Put', entity: 'Environment' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: exactly({ name: environmentName() }, 'field'),
    response: dataBody(environment()),
  }),
  sample: (world) => ({ params: { projectId: world.projectId }, body: { name: 'preview' } }),
});
