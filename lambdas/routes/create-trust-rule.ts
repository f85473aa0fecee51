import { createTrustRuleRoute } from '@contract/routes/create-trust-rule';
import { trustRules } from '@lambdas/composition/trust-rules';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/service-accounts/{serviceAccountId}/trust-rules (owners and admins): whom it trusts to sign in as it. */
export const handler = defineRoute(createTrustRuleRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await trustRules.addTrustRule(principal, params.projectId, params.serviceAccountId, input, origin, now),
}));
