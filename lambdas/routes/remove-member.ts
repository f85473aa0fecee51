import { removeMemberRoute } from '@contract/routes/remove-member';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/members/{email}: removes the member who holds the address, never the owner. */
export const handler = defineRoute(removeMemberRoute)(async ({ principal, params, origin, now }) => {
  await projects.removeMember(principal, params.projectId, params.email, origin, now);
  return { success: true, message: 'Member removed successfully' };
});
