import { compareEnvironmentsRoute } from '@contract/routes/compare-environments';
import { inProject, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/compare: members with read in both environments; no value, no read recorded. */
export const handler = defineRoute(compareEnvironmentsRoute)(async (request) => ({
  success: true,
  data: await secrets.compareEnvironments(inProject(request), request.query),
}));
