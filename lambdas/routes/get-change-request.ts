import { getChangeRequestRoute } from '@contract/routes/get-change-request';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET …/change-requests/{id}: one request, without its values. */
export const handler = defineRoute(getChangeRequestRoute)(async (request) => ({
  success: true,
  data: await changeRequests.get(inEnvironment(request), request.params.id),
}));
