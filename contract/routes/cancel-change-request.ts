import { CHANGE_REQUEST_PARAM_ERRORS, changeRequest, changeRequestParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of cancel change request (one module per route: a function bundles only its own).

export const cancelChangeRequestRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/cancel',
  handler: 'cancel-change-request',
  tag: 'changes',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: 'Withdraw an open change request (its author): nothing is written',
  success: { status: 200, description: 'The request, cancelled' },
  errors: {
    forbidden: [ErrorText.environmentAccess, ErrorText.notAuthor],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.changeRequestNotFound],
    conflict: [ErrorText.changeRequestNotOpen],
  },
  paramErrors: CHANGE_REQUEST_PARAM_ERRORS,
  // Least work (cancel): the caller's membership and the environment, the request; then, atomically,
  // the request closed if unchanged, its event and its slot freed.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'GetItem', entity: 'ChangeRequest', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'ChangeRequest' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Update', entity: 'ChangeSlots' },
      ],
    },
    accessDenial,
  ],
  schemas: () => ({
    params: changeRequestParams(),
    response: dataBody(changeRequest()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, id: world.ownChangeRequestId },
  }),
});
