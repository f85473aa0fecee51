import { getShareRoute } from '@contract/routes/get-share';
import { shares } from '@lambdas/composition/shares';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/shares/{id}: who shared it and what is left of it, for a caller it reveals to. */
export const handler = defineRoute(getShareRoute)(async ({ principal, params, now }) => ({
  success: true,
  data: await shares.lookAtShare(principal, params.id, now),
}));
