import { changeSecretsRoute } from '@contract/routes/change-secrets';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { changeSecrets } from '@lambdas/use-cases/secrets';

/** PATCH /api/v1/projects/{projectId}/environments/{environment}/secrets: members; all or nothing. */
export const handler = defineRoute(changeSecretsRoute)(async (request) => ({
  success: true,
  data: await changeSecrets(secretDeps, inEnvironment(request), request.input),
}));
