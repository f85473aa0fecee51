import { listChangeRequestsRoute } from '@contract/routes/list-change-requests';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { listChangeRequests } from '@lambdas/use-cases/change-requests';

/** GET …/environments/{environment}/change-requests: newest first, of one status when asked. */
export const handler = defineRoute(listChangeRequestsRoute)(async (request) => ({
  success: true,
  data: await listChangeRequests(changeRequestDeps, inEnvironment(request), request.query.status),
}));
