import { deleteTrustRuleRoute } from '@contract/routes/delete-trust-rule';
import { trustRules } from '@lambdas/composition/trust-rules';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE …/trust-rules/{ruleId} (owners and admins): no sign-in passes the rule any more. */
export const handler = defineRoute(deleteTrustRuleRoute)(async ({ principal, params, origin, now }) => {
  await trustRules.deleteTrustRule(principal, params.projectId, params.serviceAccountId, params.ruleId, origin, now);
  return { success: true };
});
