import { getMeRoute } from '@contract/routes/get-me';
import { me } from '@lambdas/composition/me';
import { defineRoute } from '@lambdas/http/define-route';

/**
 * GET /api/v1/me (sessions only): the session's user and e-mail, the address a token created now is
 * bound to, and the projects others added the caller to that the caller has not opened yet.
 */
export const handler = defineRoute(getMeRoute)(async ({ principal, origin }) => ({
  success: true,
  data: await me.describeSession(principal, origin),
}));
