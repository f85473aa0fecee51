import { listEnvironmentsRoute } from '@contract/routes/list-environments';
import { environments } from '@lambdas/composition/environments';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/environments: any member. */
export const handler = defineRoute(listEnvironmentsRoute)(async ({ principal, params }) => ({
  success: true,
  data: await environments.listEnvironments(principal, params.projectId),
}));
