import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody } from '../schemas';
import { SERVICE_ACCOUNT_PARAM_ERRORS, serviceAccountParams } from '../service-account-routes';
import { GITHUB_ACTIONS_ISSUER, MAX_TRUST_RULES, storedTrustRule, trustRuleBody } from '../trust-rules';

// The contract of create trust rule (one module per route: a function bundles only its own).

export const createTrustRuleRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules',
  handler: 'create-trust-rule',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: `Trust an OIDC workload or AWS principals to sign in as a service account, at most ${MAX_TRUST_RULES} rules (owner and admin)`,
  success: { status: 201, description: 'The rule as saved, with its id' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound],
    conflict: [ErrorText.trustRuleLimit],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (add a trust rule): the caller's role and the service account side by side; then,
  // atomically, the role checked again, the service account still there, the rule appended to its
  // rules below their limit, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
        { action: 'Update', entity: 'TrustRules' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    body: trustRuleBody(),
    response: dataBody(storedTrustRule()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId },
    body: {
      kind: 'oidc',
      issuer: GITHUB_ACTIONS_ISSUER,
      audience: 'secrets-service',
      subject: 'repo:acme/app:ref:refs/heads/main',
    },
  }),
});
