import { cancelChangeRequestRoute } from '@contract/routes/cancel-change-request';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/change-requests/{id}/cancel: its author withdraws it. */
export const handler = defineRoute(cancelChangeRequestRoute)(async (request) => ({
  success: true,
  data: await changeRequests.close(inEnvironment(request), request.params.id, 'cancelled'),
}));
