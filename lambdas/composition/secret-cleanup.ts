import * as secretRepository from '@lambdas/data/secret-repository';
import { type ExpiredSecret, purgeExpiredSecretVersions } from '@lambdas/use-cases/secret-cleanup';

/** The cleanup of expired secrets' versions (the composition root of its stream function); no key wrapping. */
export const secretCleanup = {
  purgeExpiredSecretVersions: (secret: ExpiredSecret) => purgeExpiredSecretVersions(secretRepository, secret),
};
