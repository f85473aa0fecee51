import { listSecretVersionsRoute } from '@contract/routes/list-secret-versions';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/versions: members; no values. */
export const handler = defineRoute(listSecretVersionsRoute)(async (request) => ({
  success: true,
  data: await secrets.listVersions(inEnvironment(request), request.params.name),
}));
