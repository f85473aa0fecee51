import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody, name, projectId, role, timestamp } from '../schemas';

// The project routes' contracts (one module per resource: a function bundles only its own).

export const createProjectRoute = route({
  method: 'POST',
  path: '/api/v1/projects',
  handler: 'create-project',
  tokenScope: 'admin',
  summary: 'Create a project owned by the caller',
  success: { status: 201, description: 'The new project; the caller is its owner' },
  errors: {},
  // Least work (create a project): Project and owner membership together, so no project is ever
  // without its owner.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Project' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    body: z.strictObject({ name: name() }),
    response: dataBody(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp() })),
  }),
  sample: () => ({ body: { name: 'payments' } }),
});

export const listProjectsRoute = route({
  method: 'GET',
  path: '/api/v1/projects',
  handler: 'list-projects',
  tokenScope: 'read:secrets',
  summary: 'List the projects the caller belongs to',
  success: { status: 200, description: "The caller's projects with the caller's role" },
  errors: {},
  // Least work (list a user’s projects): One page of the user’s partition of the list index; each
  // membership carries the project’s name.
  dataAccess: [{ operation: 'Query', entity: 'Member', consistent: false, index: 'GSI1' }],
  schemas: () => ({
    response: dataBody(
      z.array(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp(), role: role() })),
    ),
  }),
  sample: () => ({}),
});
