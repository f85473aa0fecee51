import { changeSecretsRoute } from '@contract/routes/change-secrets';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** PATCH /api/v1/projects/{projectId}/environments/{environment}/secrets: members; all or nothing. */
export const handler = defineRoute(changeSecretsRoute)(async (request) => ({
  success: true,
  data: await secrets.changeSecrets(inEnvironment(request), request.input),
}));
