import { compareEnvironmentsRoute } from '@contract/routes/compare-environments';
import { inProject, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { compareEnvironments } from '@lambdas/use-cases/secrets';

/** GET /api/v1/projects/{projectId}/compare: members with read in both environments; no value, no read recorded. */
export const handler = defineRoute(compareEnvironmentsRoute)(async (request) => ({
  success: true,
  data: await compareEnvironments(secretDeps, inProject(request), request.query),
}));
