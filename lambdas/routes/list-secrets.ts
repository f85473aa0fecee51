import { listSecretsRoute } from '@contract/routes/list-secrets';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets: members; no values. */
export const handler = defineRoute(listSecretsRoute)(async (request) => ({
  success: true,
  data: await secrets.listSecrets(inEnvironment(request), request.query.deleted === 'true'),
}));
