import { approveChangeRequestRoute } from '@contract/routes/approve-change-request';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/change-requests/{id}/approve: another owner or admin approves; the last approval applies it. */
export const handler = defineRoute(approveChangeRequestRoute)(async (request) => ({
  success: true,
  data: await changeRequests.approve(inEnvironment(request), request.params.id),
}));
