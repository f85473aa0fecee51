import { getMemberships } from '@lambdas/data/project-repository';
import { getTokenById, listTokensByUser } from '@lambdas/data/token-repository';
import { createTokenWithinLimit, replaceTokenWithinLimit, revokeToken } from '@lambdas/data/token-slot-repository';
import { randomIds } from '@lambdas/domain/ids';
import { tokenUseCases } from '@lambdas/use-cases/tokens';

/*
 * Composition roots (this folder, one module per group of functions, so that a function bundles only
 * what it calls): the use cases wired, once when a function starts, to the DynamoDB repositories (whose
 * client reads the table's configuration then) and to random ids. Route modules, the authorizer, event
 * functions and commands take their use cases from here; unit tests wire the same use cases to in-memory fakes.
 * Nothing in data/, domain/ or use-cases/ imports this folder.
 */

/** Creating, listing, revoking and rotating the caller's tokens. */
export const tokens = tokenUseCases({
  tokens: {
    get: getTokenById,
    listByUser: listTokensByUser,
    create: createTokenWithinLimit,
    replace: replaceTokenWithinLimit,
    revoke: revokeToken,
  },
  members: { getMemberships },
  ids: randomIds,
});
