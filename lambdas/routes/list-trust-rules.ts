import { listTrustRulesRoute } from '@contract/routes/list-trust-rules';
import { trustRules } from '@lambdas/composition/trust-rules';
import { defineRoute } from '@lambdas/http/define-route';

/** GET …/service-accounts/{serviceAccountId}/trust-rules (owners and admins). */
export const handler = defineRoute(listTrustRulesRoute)(async ({ principal, params }) => ({
  success: true,
  data: await trustRules.listTrustRules(principal, params.projectId, params.serviceAccountId),
}));
