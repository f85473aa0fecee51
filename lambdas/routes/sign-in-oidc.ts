import { signInOidcRoute } from '@contract/routes/sign-in-oidc';
import { signIn } from '@lambdas/composition/sign-in';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/auth/oidc (no credential): a workload's OIDC token for a service account's short-lived token. */
export const handler = defineRoute(signInOidcRoute)(async ({ input, origin, now }) => ({
  success: true,
  data: await signIn.signIn({ kind: 'oidc', ...input }, origin, now),
}));
