import { setMemberAccessRoute } from '@contract/routes/set-member-access';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** PUT /api/v1/projects/{projectId}/members/{email}/access: owners and admins set a plain member's access. */
export const handler = defineRoute(setMemberAccessRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await projects.setMemberAccess(principal, params.projectId, params.email, input.access, origin, now),
}));
