import { deleteShareRoute } from '@contract/routes/delete-share';
import { shares } from '@lambdas/composition/shares';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/shares/{id}: withdraws one of the caller's live shares. */
export const handler = defineRoute(deleteShareRoute)(async ({ principal, params, origin, now }) => {
  await shares.deleteShare(principal, params.id, origin, now);
  return { success: true };
});
