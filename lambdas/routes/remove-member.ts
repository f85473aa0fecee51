import { removeMemberRoute } from '@contract/routes/remove-member';
import { defineRoute } from '@lambdas/http/define-route';
import { removeMember } from '@lambdas/use-cases/projects';

/** DELETE /api/v1/projects/{projectId}/members/{email}: removes the member who holds the address, never the owner. */
export const handler = defineRoute(removeMemberRoute)(async ({ principal, params, origin, now }) => {
  await removeMember(principal, params.projectId, params.email, origin, now);
  return { success: true, message: 'Member removed successfully' };
});
