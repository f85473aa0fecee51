import { cancelChangeRequestRoute } from '@contract/routes/cancel-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { closeChangeRequest } from '@lambdas/use-cases/change-requests';

/** POST …/change-requests/{id}/cancel: its author withdraws it. */
export const handler = defineRoute(cancelChangeRequestRoute)(async (request) => ({
  success: true,
  data: await closeChangeRequest(changeRequestDeps, inEnvironment(request), request.params.id, 'cancelled'),
}));
