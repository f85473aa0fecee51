import { applyChangeRequestRoute } from '@contract/routes/apply-change-request';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/change-requests/{id}/apply: the owner applies it without its approvals, giving a reason. */
export const handler = defineRoute(applyChangeRequestRoute)(async (request) => ({
  success: true,
  data: await changeRequests.force(inEnvironment(request), request.params.id, request.input.reason),
}));
