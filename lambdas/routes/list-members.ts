import { listMembersRoute } from '@contract/routes/list-members';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/members: owner first, then by e-mail. */
export const handler = defineRoute(listMembersRoute)(async ({ principal, params }) => ({
  success: true,
  data: await projects.listMembers(principal, params.projectId),
}));
