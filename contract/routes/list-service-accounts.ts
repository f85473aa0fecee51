import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, projectId } from '../schemas';
import { serviceAccount } from '../service-account-routes';

// The contract of list service accounts (one module per route: a function bundles only its own).

export const listServiceAccountsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/service-accounts',
  handler: 'list-service-accounts',
  tag: 'serviceAccounts',
  tokenScope: 'read:secrets',
  summary: 'List the service accounts of a project',
  success: { status: 200, description: 'The service accounts, by name' },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (list service accounts): the caller's membership (strongly consistent: it decides
  // access), the service accounts, and the project's environments (access to one deleted since is not
  // shown), side by side.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'ServiceAccount', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(serviceAccount())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});
