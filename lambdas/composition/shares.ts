import {
  createShareWithinLimit,
  deleteShare,
  getShare,
  listSharesByUser,
  spendView,
} from '@lambdas/data/share-repository';
import { getEmailClaims } from '@lambdas/data/user-repository';
import { randomIds } from '@lambdas/domain/ids';
import { shareUseCases } from '@lambdas/use-cases/shares';

/** Creating, looking at, revealing, listing and withdrawing shares. */
export const shares = shareUseCases({
  shares: {
    get: getShare,
    listByUser: listSharesByUser,
    create: createShareWithinLimit,
    spendView,
    delete: deleteShare,
  },
  claims: { getEmailClaims },
  ids: randomIds,
});
