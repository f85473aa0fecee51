import { getChangeRequestValuesRoute } from '@contract/routes/get-change-request-values';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET …/change-requests/{id}/values: the proposed values, a recorded read. */
export const handler = defineRoute(getChangeRequestValuesRoute)(async (request) => ({
  success: true,
  data: await changeRequests.values(inEnvironment(request), request.params.id),
}));
