import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody } from '../schemas';
import { TRUST_RULE_PARAM_ERRORS, trustRuleParams } from '../service-account-routes';

// The contract of delete trust rule (one module per route: a function bundles only its own).

export const deleteTrustRuleRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules/{ruleId}',
  handler: 'delete-trust-rule',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'Stop trusting what a rule trusted (owner and admin); tokens it won live out their minutes',
  success: { status: 200, description: 'Deleted; no sign-in passes it any more' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound, ErrorText.trustRuleNotFound],
  },
  paramErrors: TRUST_RULE_PARAM_ERRORS,
  // Least work (delete a trust rule): the caller's role, the service account and its rules side by
  // side (the rule's place among them); then, atomically, the role checked again, the rule removed
  // only if it is still in that place, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'GetItem', entity: 'TrustRules', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'TrustRules' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({ params: trustRuleParams(), response: successBody() }),
  sample: (world) => ({
    params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId, ruleId: world.trustRuleId },
  }),
});
