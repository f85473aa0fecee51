import { dataKeys, decryptValue, encryptValue } from '@lambdas/crypto/envelope';
import { keyWrapper } from '@lambdas/crypto/key-wrapper';
import * as secretRepository from '@lambdas/data/secret-repository';
import { secretUseCases } from '@lambdas/use-cases/secrets';

/** The secrets of a project's environments (the composition root of their routes). */
export const secrets = secretUseCases({
  secrets: secretRepository,
  crypto: { keys: dataKeys(keyWrapper), encryptValue, decryptValue },
});
