import * as z from 'zod/mini';
import { route } from '../route';
import { exactly } from '../schemas';
import { SIGN_IN_DATA_ACCESS, signInAnswer, signInFields } from '../service-account-routes';
import { SERVICE_ACCOUNT_SIGNED_IN_METRIC } from '../service-metrics';

// The contract of sign in with AWS (one module per route: a function bundles only its own).

export const signInAwsRoute = route({
  method: 'POST',
  path: '/api/v1/auth/aws',
  handler: 'sign-in-aws',
  tag: 'serviceAccounts',
  tokenScope: null,
  signIn: true,
  summary:
    'Sign in as a service account with a signed sts:GetCallerIdentity request of an IAM role or user one of its trust rules names; no other credential',
  success: { status: 200, description: 'A short-lived token of the service account, bound to the calling address' },
  errors: {},
  successMetric: SERVICE_ACCOUNT_SIGNED_IN_METRIC,
  // Least work (sign in): as every sign-in's (SIGN_IN_DATA_ACCESS); the proof's check reads no table.
  dataAccess: SIGN_IN_DATA_ACCESS,
  schemas: () => ({
    body: exactly(
      {
        ...signInFields(),
        request: exactly(
          {
            headers: z
              .record(z.string(), z.string(), {
                error: 'Send the signed request’s headers as an object of text values',
              })
              .check(
                z.describe('The signed request’s headers, among them Authorization, X-Amz-Date and X-Secrets-Service'),
              ),
            body: z
              .string({ error: 'Send the signed request’s body as text' })
              .check(z.describe('`Action=GetCallerIdentity&Version=2011-06-15`')),
          },
          'field',
        ).check(
          z.describe(
            'An sts:GetCallerIdentity request signed with SigV4 (not sent): the service sends it to STS itself',
          ),
        ),
      },
      'field',
    ),
    response: signInAnswer(),
  }),
  sample: (world) => ({ body: { serviceAccountId: world.serviceAccountId, request: world.awsSignInRequest } }),
});
