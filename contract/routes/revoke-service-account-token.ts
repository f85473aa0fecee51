import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody } from '../schemas';
import { SERVICE_ACCOUNT_TOKEN_PARAM_ERRORS, serviceAccountTokenParams } from '../service-account-routes';

// The contract of revoke service account token (one module per route: a function bundles only its own).

export const revokeServiceAccountTokenRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}',
  handler: 'revoke-service-account-token',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'Revoke a static token of a service account (owner and admin)',
  success: { status: 200, description: 'Revoked; its next use is a 401' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound, ErrorText.tokenNotFound],
  },
  paramErrors: SERVICE_ACCOUNT_TOKEN_PARAM_ERRORS,
  // Least work (revoke a service account's token): the caller's role and the service account side by
  // side, then the token (it must be one of the service account's); then, atomically, the token deleted
  // while still the service account's, its slot freed, the event, the role checked again and the
  // service account still there.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'GetItem', entity: 'Token', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
      ],
    },
  ],
  schemas: () => ({ params: serviceAccountTokenParams(), response: successBody() }),
  sample: (world) => ({
    params: {
      projectId: world.projectId,
      serviceAccountId: world.serviceAccountId,
      tokenId: world.serviceAccountTokenId,
    },
  }),
});
