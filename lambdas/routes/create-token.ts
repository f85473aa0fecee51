import { createTokenRoute } from '@contract/routes/create-token';
import { tokens } from '@lambdas/composition/tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/tokens (sessions only): mints a token bound to the caller's address; the raw token is in this answer only. */
export const handler = defineRoute(createTokenRoute)(async ({ principal, input, origin, now }) => ({
  success: true,
  data: await tokens.createToken(principal, input, origin, now),
}));
