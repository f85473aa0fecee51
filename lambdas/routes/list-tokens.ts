import { listTokensRoute } from '@contract/routes/list-tokens';
import { defineRoute } from '@lambdas/http/define-route';
import { listTokens } from '@lambdas/use-cases/tokens';

/** GET /api/v1/tokens: the caller's tokens, newest first. */
export const handler = defineRoute(listTokensRoute)(async ({ principal }) => ({
  success: true,
  data: await listTokens(principal),
}));
