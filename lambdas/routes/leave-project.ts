import { leaveProjectRoute } from '@contract/routes/leave-project';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/members/me: the caller leaves a project they do not own. */
export const handler = defineRoute(leaveProjectRoute)(async ({ principal, params, origin, now }) => {
  await projects.leaveProject(principal, params.projectId, origin, now);
  return { success: true, message: 'Left the project' };
});
