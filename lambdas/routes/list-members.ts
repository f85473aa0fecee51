import { listMembersRoute } from '@contract/routes/list-members';
import { defineRoute } from '@lambdas/http/define-route';
import { listMembers } from '@lambdas/use-cases/projects';

/** GET /api/v1/projects/{projectId}/members: owner first, then by e-mail. */
export const handler = defineRoute(listMembersRoute)(async ({ principal, params }) => ({
  success: true,
  data: await listMembers(principal, params.projectId),
}));
