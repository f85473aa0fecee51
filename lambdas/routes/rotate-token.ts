import { rotateTokenRoute } from '@contract/routes/rotate-token';
import { tokens } from '@lambdas/composition/tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/tokens/{id}/rotate (sessions only): a new token replaces one of the caller's; the raw token is in this answer only. */
export const handler = defineRoute(rotateTokenRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await tokens.rotateToken(principal, params.id, input, origin, now),
}));
