import { listServiceAccountsRoute } from '@contract/routes/list-service-accounts';
import { serviceAccounts } from '@lambdas/composition/service-accounts';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/service-accounts: any member, by name. */
export const handler = defineRoute(listServiceAccountsRoute)(async ({ principal, params }) => ({
  success: true,
  data: await serviceAccounts.listServiceAccounts(principal, params.projectId),
}));
