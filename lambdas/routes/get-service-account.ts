import { getServiceAccountRoute } from '@contract/routes/get-service-account';
import { serviceAccounts } from '@lambdas/composition/service-accounts';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/service-accounts/{serviceAccountId}: any member. */
export const handler = defineRoute(getServiceAccountRoute)(async ({ principal, params }) => ({
  success: true,
  data: await serviceAccounts.getServiceAccount(principal, params.projectId, params.serviceAccountId),
}));
