import { CHANGE_REQUEST_PARAM_ERRORS, changeRequest, changeRequestParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of reject change request (one module per route: a function bundles only its own).

export const rejectChangeRequestRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/reject',
  handler: 'reject-change-request',
  tag: 'changes',
  tokenScope: null,
  summary: 'Reject an open change request (owner and admin): nothing is written',
  success: { status: 200, description: 'The request, rejected' },
  errors: {
    forbidden: [ErrorText.environmentAccess, ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.changeRequestNotFound],
    conflict: [ErrorText.changeRequestNotOpen],
  },
  paramErrors: CHANGE_REQUEST_PARAM_ERRORS,
  // Least work (reject): the caller's membership and the environment, the request; then, atomically,
  // the request closed if unchanged, its event, its slot freed, the caller's role checked again.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'GetItem', entity: 'ChangeRequest', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'ChangeRequest' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Update', entity: 'ChangeSlots' },
        { action: 'ConditionCheck', entity: 'Member' },
      ],
    },
    accessDenial,
  ],
  schemas: () => ({
    params: changeRequestParams(),
    response: dataBody(changeRequest()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, id: world.changeRequestId },
  }),
});
