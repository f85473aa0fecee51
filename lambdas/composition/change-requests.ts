import * as changeRequestRepository from '@lambdas/data/change-request-repository';
import { changeRequestUseCases } from '@lambdas/use-cases/change-requests';
import { secretCrypto, secrets } from './secrets';

/** The change requests of a project's environments (the composition root of their routes). */
export const changeRequests = changeRequestUseCases({
  changes: changeRequestRepository,
  crypto: secretCrypto,
  secrets,
});
