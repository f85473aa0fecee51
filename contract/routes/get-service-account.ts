import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody } from '../schemas';
import { SERVICE_ACCOUNT_PARAM_ERRORS, serviceAccount, serviceAccountParams } from '../service-account-routes';

// The contract of get service account (one module per route: a function bundles only its own).

export const getServiceAccountRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}',
  handler: 'get-service-account',
  tag: 'serviceAccounts',
  tokenScope: 'read:secrets',
  summary: 'Read one service account of a project',
  success: { status: 200, description: 'The service account' },
  errors: { notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound] },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (read a service account): the caller's membership (strongly consistent: it decides
  // access), the service account, and the project's environments (access to one deleted since is not
  // shown), side by side.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    response: dataBody(serviceAccount()),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId } }),
});
