import { getMember } from '@lambdas/data/project-repository';
import { getServiceAccount } from '@lambdas/data/service-account-repository';
import {
  createServiceAccountToken,
  replaceServiceAccountToken,
  revokeServiceAccountToken,
} from '@lambdas/data/service-account-token-repository';
import { getTokenById, listTokensByUser } from '@lambdas/data/token-repository';
import { mintToken } from '@lambdas/domain/token-format';
import { serviceAccountTokenUseCases } from '@lambdas/use-cases/service-account-tokens';

/** A service account's static tokens (the composition root of their routes). */
export const serviceAccountTokens = serviceAccountTokenUseCases({
  store: {
    getMember,
    getServiceAccount,
    getToken: getTokenById,
    listTokens: listTokensByUser,
    createToken: createServiceAccountToken,
    replaceToken: replaceServiceAccountToken,
    revokeToken: revokeServiceAccountToken,
  },
  ids: { mintToken },
});
