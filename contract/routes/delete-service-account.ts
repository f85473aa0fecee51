import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody } from '../schemas';
import { SERVICE_ACCOUNT_PARAM_ERRORS, serviceAccountParams } from '../service-account-routes';

// The contract of delete service account (one module per route: a function bundles only its own).

export const deleteServiceAccountRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}',
  handler: 'delete-service-account',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'Delete a service account (owner and admin)',
  success: { status: 200, description: 'Deleted' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (delete a service account): the caller's role and the service account (its name for
  // the event), side by side; then, atomically, the role checked again, the service account deleted if
  // it still exists, the project's count of them lowered, the event, and its trust rules.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Delete', entity: 'ServiceAccount' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Delete', entity: 'TrustRules' },
      ],
    },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    response: successBody(),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId } }),
});
