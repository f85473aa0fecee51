import { getChangeRequestValuesRoute } from '@contract/routes/get-change-request-values';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { changeRequestValues } from '@lambdas/use-cases/change-requests';

/** GET …/change-requests/{id}/values: the proposed values, a recorded read. */
export const handler = defineRoute(getChangeRequestValuesRoute)(async (request) => ({
  success: true,
  data: await changeRequestValues(changeRequestDeps, inEnvironment(request), request.params.id),
}));
