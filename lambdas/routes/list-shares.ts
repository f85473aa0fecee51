import { listSharesRoute } from '@contract/routes/list-shares';
import { shares } from '@lambdas/composition/shares';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/shares: the caller's live shares, newest first. */
export const handler = defineRoute(listSharesRoute)(async ({ principal, now }) => ({
  success: true,
  data: await shares.listShares(principal, now),
}));
