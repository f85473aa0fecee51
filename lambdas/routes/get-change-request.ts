import { getChangeRequestRoute } from '@contract/routes/get-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { getChangeRequest } from '@lambdas/use-cases/change-requests';

/** GET …/change-requests/{id}: one request, without its values. */
export const handler = defineRoute(getChangeRequestRoute)(async (request) => ({
  success: true,
  data: await getChangeRequest(changeRequestDeps, inEnvironment(request), request.params.id),
}));
