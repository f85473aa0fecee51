import { restoreSecretRoute } from '@contract/routes/restore-secret';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore: members. */
export const handler = defineRoute(restoreSecretRoute)(async (request) => ({
  success: true,
  data: await secrets.restoreSecret(inEnvironment(request), request.params.name, request.input.version),
}));
