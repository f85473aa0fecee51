import { CHANGE_REQUEST_PARAM_ERRORS, changeRequest, changeRequestParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of get change request (one module per route: a function bundles only its own).

export const getChangeRequestRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}',
  handler: 'get-change-request',
  tag: 'changes',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'One change request, without its values',
  success: { status: 200, description: 'The request' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.changeRequestNotFound],
  },
  paramErrors: CHANGE_REQUEST_PARAM_ERRORS,
  // Least work (a change request): the caller's membership and the environment, strongly consistent in
  // one call, then the request.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'GetItem', entity: 'ChangeRequest', consistent: true },
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
