import { createChangeRequestRoute } from '@contract/routes/create-change-request';
import { changeRequests } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/environments/{environment}/change-requests: a member with write there proposes a change. */
export const handler = defineRoute(createChangeRequestRoute)(async (request) => ({
  success: true,
  data: await changeRequests.propose(inEnvironment(request), request.input),
}));
