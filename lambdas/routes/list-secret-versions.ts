import { listSecretVersionsRoute } from '@contract/routes/list-secret-versions';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { listVersions } from '@lambdas/use-cases/secrets';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/versions: members; no values. */
export const handler = defineRoute(listSecretVersionsRoute)(async (request) => ({
  success: true,
  data: await listVersions(secretDeps, inEnvironment(request), request.params.name),
}));
