import { getMeRoute } from '@contract/routes/get-me';
import { defineRoute } from '@lambdas/http/define-route';
import { describeSession } from '@lambdas/use-cases/me';

/** GET /api/v1/me (sessions only): the session's user and e-mail, and the address a token created now is bound to. */
export const handler = defineRoute(getMeRoute)(async ({ principal, origin }) => ({
  success: true,
  data: describeSession(principal, origin),
}));
