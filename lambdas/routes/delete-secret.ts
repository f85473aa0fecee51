import { deleteSecretRoute } from '@contract/routes/delete-secret';
import { secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; a soft delete. */
export const handler = defineRoute(deleteSecretRoute)(async ({ principal, params, origin, now }) => {
  await secrets.deleteSecret(principal, params.projectId, params.environment, params.name, origin, now);
  return { success: true };
});
