import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody, exactly, name, projectId, timestamp } from '../schemas';

// The contract of create project (one module per route: a function bundles only its own).

export const createProjectRoute = route({
  method: 'POST',
  path: '/api/v1/projects',
  handler: 'create-project',
  tag: 'projects',
  tokenScope: 'admin',
  summary: 'Create a project owned by the caller',
  success: { status: 201, description: 'The new project; the caller is its owner' },
  errors: {},
  // Least work (create a project): Project and owner membership together, so no project is ever
  // without its owner, with its three first environments.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Project' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'Membership' },
        { action: 'Put', entity: 'Environment' },
        { action: 'Put', entity: 'Environment' },
        { action: 'Put', entity: 'Environment' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    body: exactly({ name: name() }, 'field'),
    response: dataBody(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp() })),
  }),
  sample: () => ({ body: { name: 'payments' } }),
});
