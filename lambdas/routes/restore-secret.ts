import { restoreSecretRoute } from '@contract/routes/restore-secret';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { restoreSecret } from '@lambdas/use-cases/secrets';

/** POST /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore: members. */
export const handler = defineRoute(restoreSecretRoute)(async (request) => ({
  success: true,
  data: await restoreSecret(secretDeps, inEnvironment(request), request.params.name, request.input.version),
}));
