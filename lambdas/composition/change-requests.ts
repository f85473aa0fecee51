import * as changeRequestRepository from '@lambdas/data/change-request-repository';
import type { ChangeRequestDeps } from '@lambdas/use-cases/change-requests';
import { secretCrypto, secretDeps } from './secrets';

/** What the change-request use cases work over (the composition root of their routes). */
export const changeRequestDeps: ChangeRequestDeps = {
  changes: changeRequestRepository,
  crypto: secretCrypto,
  secrets: secretDeps,
};
