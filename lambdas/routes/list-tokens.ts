import { listTokensRoute } from '@contract/routes/list-tokens';
import { tokens } from '@lambdas/composition/tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/tokens: the caller's tokens, newest first. */
export const handler = defineRoute(listTokensRoute)(async ({ principal }) => ({
  success: true,
  data: await tokens.listTokens(principal),
}));
