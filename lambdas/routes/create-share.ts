import { createShareRoute } from '@contract/routes/create-share';
import { shares } from '@lambdas/composition/shares';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/shares: stores a ciphertext the client sealed, for a few views and hours. */
export const handler = defineRoute(createShareRoute)(async ({ principal, input, origin, now }) => ({
  success: true,
  data: await shares.createShare(principal, input, origin, now),
}));
