import { getMember } from '@lambdas/data/project-repository';
import { getServiceAccount } from '@lambdas/data/service-account-repository';
import { addTrustRule, deleteTrustRule, getTrustRules } from '@lambdas/data/trust-rule-repository';
import { newTrustRuleId } from '@lambdas/domain/trust-rules';
import { trustRuleUseCases } from '@lambdas/use-cases/trust-rules';
import { signInFlags } from './sign-in-flags';

/** A service account's trust rules (the composition root of their routes). */
export const trustRules = trustRuleUseCases({
  store: { getMember, getServiceAccount, getTrustRules, addTrustRule, deleteTrustRule },
  newTrustRuleId,
  flags: signInFlags(process.env),
});
