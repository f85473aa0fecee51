import * as z from 'zod/mini';
import { CHANGE_REQUEST_PARAM_ERRORS, changeRequestParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';

// The contract of get change request values (one module per route: a function bundles only its own).

export const getChangeRequestValuesRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/values',
  handler: 'get-change-request-values',
  tag: 'changes',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'The values a change request proposes, `{NAME: value}`: a recorded read',
  success: { status: 200, description: 'The proposed values by name' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.changeRequestNotFound],
  },
  paramErrors: CHANGE_REQUEST_PARAM_ERRORS,
  // Least work (a change request's values): the caller's membership, the environment and the project's
  // wrapped data key in one call, the request, its sealed values, and the read recorded before they are
  // answered.
  keyUse: ['Decrypt'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'Project'], consistent: true },
    { operation: 'GetItem', entity: 'ChangeRequest', consistent: true },
    { operation: 'Query', entity: 'ProposedValue', consistent: true },
    { operation: 'PutItem', entity: 'ProjectAuditEvent' },
  ],
  schemas: () => ({
    params: changeRequestParams(),
    response: dataBody(z.record(z.string(), z.string())),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, id: world.changeRequestId },
  }),
});
