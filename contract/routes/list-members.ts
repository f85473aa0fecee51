import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, member, projectId } from '../schemas';

// The contract of list members (one module per route: a function bundles only its own).

export const listMembersRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'list-members',
  tag: 'members',
  tokenScope: 'read:secrets',
  summary: 'List the members of a project',
  success: { status: 200, description: 'The members, owner first, then by e-mail' },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (list members (decides access)): The project’s partition, strongly consistent because
  // the caller’s own membership in it decides access; then each member’s profile, whose address
  // follows their latest session (eventual: display only). The sample world’s project has two
  // members. Beside the members, the project's environments, each member's access to which is shown.
  dataAccess: [
    { operation: 'Query', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
    { operation: 'BatchGetItem', entities: ['Profile', 'Profile'], consistent: false },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(member())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});
