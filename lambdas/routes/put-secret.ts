import { putSecretRoute } from '@contract/routes/put-secret';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { Created } from '@lambdas/http/responses';
import { putSecret } from '@lambdas/use-cases/secrets';

/** PUT /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; 201 when it creates. */
export const handler = defineRoute(putSecretRoute)(async (request) => {
  const { secret, created } = await putSecret(secretDeps, inEnvironment(request), request.params.name, request.input);
  const body = { success: true as const, data: secret };
  return created ? new Created(body) : body;
});
