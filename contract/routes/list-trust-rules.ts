import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody } from '../schemas';
import { SERVICE_ACCOUNT_PARAM_ERRORS, serviceAccountParams } from '../service-account-routes';
import { storedTrustRule } from '../trust-rules';

// The contract of list trust rules (one module per route: a function bundles only its own).

export const listTrustRulesRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules',
  handler: 'list-trust-rules',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'List the trust rules of a service account (owner and admin)',
  success: { status: 200, description: 'Its trust rules, oldest first' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (list trust rules): the caller's role, the service account and its rules, side by side.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'GetItem', entity: 'TrustRules', consistent: true },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    response: dataBody(z.array(storedTrustRule())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId } }),
});
