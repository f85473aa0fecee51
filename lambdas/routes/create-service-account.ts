import { createServiceAccountRoute } from '@contract/routes/create-service-account';
import { serviceAccounts } from '@lambdas/composition/service-accounts';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/service-accounts: owners and admins. */
export const handler = defineRoute(createServiceAccountRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await serviceAccounts.createServiceAccount(principal, params.projectId, input, origin, now),
}));
