import { revokeTokenRoute } from '@contract/routes/revoke-token';
import { tokens } from '@lambdas/composition/tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/tokens/{id}: revokes one of the caller's tokens; its next use is refused. */
export const handler = defineRoute(revokeTokenRoute)(async ({ principal, params, origin, now }) => {
  await tokens.revokeToken(principal, params.id, origin, now);
  return { success: true };
});
