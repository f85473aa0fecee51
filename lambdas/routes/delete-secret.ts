import { deleteSecretRoute } from '@contract/routes/delete-secret';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; a soft delete. */
export const handler = defineRoute(deleteSecretRoute)(async (request) => {
  await secrets.deleteSecret(inEnvironment(request), request.params.name);
  return { success: true };
});
