import { getServiceAccount } from '@lambdas/data/service-account-repository';
import { getTrustRules, recordSignIn, recordSignInRefusal } from '@lambdas/data/trust-rule-repository';
import { mintToken } from '@lambdas/domain/token-format';
import { STS_URL_ENV, verifyCallerIdentity } from '@lambdas/outbound/aws-caller-identity';
import { verifyWorkloadToken } from '@lambdas/outbound/workload-oidc';
import { signInUseCases } from '@lambdas/use-cases/sign-in';
import { signInFlags } from './sign-in-flags';

/** A refusal of one service account for one reason is recorded at most this often. */
const REFUSAL_INTERVAL_MS = 60_000;

const flags = signInFlags(process.env);
/** STS, or the local runtime's stand-in (never set in Lambda). */
const stsUrl = process.env.AWS_LAMBDA_FUNCTION_NAME ? undefined : process.env[STS_URL_ENV];

/** Signing in as a service account (the composition root of the sign-in routes). */
export const signIn = signInUseCases({
  getTrustRules,
  getServiceAccount,
  recordSignIn,
  recordRefusal: (serviceAccountId, projectId, reason, event, now) =>
    recordSignInRefusal(serviceAccountId, projectId, reason, event, now, REFUSAL_INTERVAL_MS),
  verifyOidc: async (token, rules, now) => {
    const verdict = await verifyWorkloadToken(token, rules, { now, ...flags });
    return verdict.accepted ? { accepted: true, subject: `${verdict.issuer}#${verdict.subject}` } : verdict;
  },
  verifyAws: async (request, rules, host) => {
    const verdict = await verifyCallerIdentity(request, {
      expectedService: host,
      principals: rules.flatMap((rule) => rule.principals),
      ...(stsUrl && { stsUrl }),
    });
    return verdict.accepted ? { accepted: true, subject: verdict.arn } : verdict;
  },
  ids: { mintToken },
});
