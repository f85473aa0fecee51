import { listEnvironments } from '@lambdas/data/environment-repository';
import { getMember } from '@lambdas/data/project-repository';
import * as serviceAccountRepository from '@lambdas/data/service-account-repository';
import { newServiceAccountId } from '@lambdas/domain/ids';
import { serviceAccountUseCases } from '@lambdas/use-cases/service-accounts';

/**
 * A project's service accounts (the composition root of their routes): their access is bound to, and
 * shown against, the project's environments.
 */
export const serviceAccounts = serviceAccountUseCases({
  serviceAccounts: { ...serviceAccountRepository, getMember, listEnvironments },
  newServiceAccountId,
});
