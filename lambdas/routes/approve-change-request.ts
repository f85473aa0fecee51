import { approveChangeRequestRoute } from '@contract/routes/approve-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { approveChangeRequest } from '@lambdas/use-cases/change-requests';

/** POST …/change-requests/{id}/approve: another owner or admin approves; the last approval applies it. */
export const handler = defineRoute(approveChangeRequestRoute)(async (request) => ({
  success: true,
  data: await approveChangeRequest(changeRequestDeps, inEnvironment(request), request.params.id),
}));
