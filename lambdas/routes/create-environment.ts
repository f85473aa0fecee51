import { createEnvironmentRoute } from '@contract/routes/create-environment';
import { environments } from '@lambdas/composition/environments';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/environments: owners and admins. */
export const handler = defineRoute(createEnvironmentRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await environments.createEnvironment(principal, params.projectId, input.name, origin, now),
}));
