import { deleteSecretRoute } from '@contract/routes/delete-secret';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { deleteSecret } from '@lambdas/use-cases/secrets';

/** DELETE /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; a soft delete. */
export const handler = defineRoute(deleteSecretRoute)(async (request) => {
  await deleteSecret(secretDeps, inEnvironment(request), request.params.name);
  return { success: true };
});
