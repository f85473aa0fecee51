import { deleteEnvironmentRoute } from '@contract/routes/delete-environment';
import { environments } from '@lambdas/composition/environments';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/environments/{environment}: owners and admins, an empty environment. */
export const handler = defineRoute(deleteEnvironmentRoute)(async ({ principal, params, origin, now }) => {
  await environments.deleteEnvironment(principal, params.projectId, params.environment, origin, now);
  return { success: true };
});
