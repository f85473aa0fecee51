import { revealShareRoute } from '@contract/routes/reveal-share';
import { shares } from '@lambdas/composition/shares';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/shares/{id}/reveal: spends one view and answers the ciphertext. */
export const handler = defineRoute(revealShareRoute)(async ({ principal, params, origin, now }) => ({
  success: true,
  data: await shares.revealShare(principal, params.id, origin, now),
}));
