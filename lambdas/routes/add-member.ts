import { addMemberRoute } from '@contract/routes/add-member';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/members: adds the user who holds the address. */
export const handler = defineRoute(addMemberRoute)(async ({ principal, params, input, origin, now }) => {
  await projects.addMember(principal, params.projectId, input, origin, now);
  return { success: true, message: 'Member added successfully' };
});
