import { getSecretRoute } from '@contract/routes/get-secret';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { getSecret } from '@lambdas/use-cases/secrets';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; a recorded read. */
export const handler = defineRoute(getSecretRoute)(async (request) => {
  const { name } = request.params;
  const version = request.query.version === undefined ? undefined : Number(request.query.version);
  return {
    success: true,
    data: await getSecret(secretDeps, inEnvironment(request), name, version, request.query.raw === 'true'),
  };
});
