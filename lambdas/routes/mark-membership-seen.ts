import { markMembershipSeenRoute } from '@contract/routes/mark-membership-seen';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/members/me/seen (sessions only): the caller opened a project they were added to. */
export const handler = defineRoute(markMembershipSeenRoute)(async ({ principal, params, now }) => {
  await projects.markMembershipSeen(principal, params.projectId, now);
  return { success: true };
});
