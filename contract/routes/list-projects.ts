import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody, projectId, role, timestamp } from '../schemas';

// The contract of list projects (one module per route: a function bundles only its own).

export const listProjectsRoute = route({
  method: 'GET',
  path: '/api/v1/projects',
  handler: 'list-projects',
  tag: 'projects',
  tokenScope: 'read:secrets',
  summary: 'List the projects the caller belongs to',
  success: { status: 200, description: "The caller's projects with the caller's role" },
  errors: {},
  // Least work (list a user’s projects): One page of the memberships in the user’s own partition;
  // each carries the project’s name.
  dataAccess: [{ operation: 'Query', entity: 'Membership', consistent: false }],
  schemas: () => ({
    response: dataBody(
      z.array(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp(), role: role() })),
    ),
  }),
  sample: () => ({}),
});
