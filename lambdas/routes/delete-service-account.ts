import { deleteServiceAccountRoute } from '@contract/routes/delete-service-account';
import { serviceAccounts } from '@lambdas/composition/service-accounts';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/service-accounts/{serviceAccountId}: owners and admins. */
export const handler = defineRoute(deleteServiceAccountRoute)(async ({ principal, params, origin, now }) => {
  await serviceAccounts.deleteServiceAccount(principal, params.projectId, params.serviceAccountId, origin, now);
  return { success: true };
});
