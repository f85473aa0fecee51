import { updateServiceAccountRoute } from '@contract/routes/update-service-account';
import { serviceAccounts } from '@lambdas/composition/service-accounts';
import { defineRoute } from '@lambdas/http/define-route';

/** PATCH /api/v1/projects/{projectId}/service-accounts/{serviceAccountId}: owners and admins. */
export const handler = defineRoute(updateServiceAccountRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await serviceAccounts.updateServiceAccount(
    principal,
    params.projectId,
    params.serviceAccountId,
    input,
    origin,
    now,
  ),
}));
