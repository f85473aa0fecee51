import { listServiceAccountTokensRoute } from '@contract/routes/list-service-account-tokens';
import { serviceAccountTokens } from '@lambdas/composition/service-account-tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** GET …/service-accounts/{serviceAccountId}/tokens (owners and admins): its static tokens, without secrets. */
export const handler = defineRoute(listServiceAccountTokensRoute)(async ({ principal, params }) => ({
  success: true,
  data: await serviceAccountTokens.listTokens(principal, params.projectId, params.serviceAccountId),
}));
