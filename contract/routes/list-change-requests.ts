import * as z from 'zod/mini';
import { changeRequest, changeRequestStatuses, changeRequestsParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of list change requests (one module per route: a function bundles only its own).

export const listChangeRequestsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests',
  handler: 'list-change-requests',
  tag: 'changes',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'List an environment’s change requests, newest first (`?status=open`: of one status), without values',
  success: { status: 200, description: 'The requests, newest first' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  // Least work (list change requests): the caller's membership and the environment, strongly
  // consistent in one call, beside the environment's requests (one Query of its partition).
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'Query', entity: 'ChangeRequest', consistent: true },
    accessDenial,
  ],
  schemas: () => ({
    params: changeRequestsParams(),
    query: exactly({ status: z.optional(z.enum(changeRequestStatuses)) }, 'query parameter'),
    response: dataBody(z.array(changeRequest())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment } }),
});
