import { signInAwsRoute } from '@contract/routes/sign-in-aws';
import { signIn } from '@lambdas/composition/sign-in';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/auth/aws (no credential): a signed sts:GetCallerIdentity for a service account's short-lived token. */
export const handler = defineRoute(signInAwsRoute)(async ({ input, origin, now, host }) => ({
  success: true,
  data: await signIn.signIn({ kind: 'aws', ...input, host: host ?? '' }, origin, now),
}));
