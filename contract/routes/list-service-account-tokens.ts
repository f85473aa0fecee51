import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody } from '../schemas';
import { SERVICE_ACCOUNT_PARAM_ERRORS, serviceAccountParams, serviceAccountToken } from '../service-account-routes';

// The contract of list service account tokens (one module per route: a function bundles only its own).

export const listServiceAccountTokensRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens',
  handler: 'list-service-account-tokens',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'List the static tokens of a service account, without their secrets (owner and admin)',
  success: { status: 200, description: 'Its tokens, newest first (a token just created may take a moment to show)' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (list a service account's tokens): the caller's role, the service account and its
  // tokens (the list index, as a person's), side by side.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    response: dataBody(z.array(serviceAccountToken())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId } }),
});
