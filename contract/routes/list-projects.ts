import * as z from 'zod/mini';
import { route } from '../route';
import { adder, dataBody, projectId, role, timestamp } from '../schemas';

// The contract of list projects (one module per route: a function bundles only its own).

export const listProjectsRoute = route({
  method: 'GET',
  path: '/api/v1/projects',
  handler: 'list-projects',
  tag: 'projects',
  tokenScope: 'read:secrets',
  summary: 'List the projects the caller belongs to',
  success: {
    status: 200,
    description:
      "The caller's projects with the caller's role, and who added the caller to each one they have not opened yet",
  },
  errors: {},
  // Least work (list a user’s projects): One page of the memberships in the user’s own partition;
  // each carries the project’s name, and who added the user until they open the project.
  dataAccess: [{ operation: 'Query', entity: 'Membership', consistent: false }],
  schemas: () => ({
    response: dataBody(
      z.array(
        z.object({
          projectId: projectId(),
          name: z.string(),
          createdAt: timestamp(),
          role: role(),
          addedBy: z
            .nullable(adder())
            .check(
              z.describe(
                'Who added the caller, until the caller opens the project (`POST …/members/me/seen`); null once opened, for the owner and for a membership older than this record',
              ),
            ),
          addedAt: z.nullable(timestamp()).check(z.describe('When the caller was added, while `addedBy` is shown')),
        }),
      ),
    ),
  }),
  sample: () => ({}),
});
