import { updateEnvironmentRoute } from '@contract/routes/update-environment';
import { environments } from '@lambdas/composition/environments';
import { defineRoute } from '@lambdas/http/define-route';

/** PATCH /api/v1/projects/{projectId}/environments/{environment}: owners and admins change its settings. */
export const handler = defineRoute(updateEnvironmentRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await environments.updateEnvironment(principal, params.projectId, params.environment, input, origin, now),
}));
