import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_SERVICE_ACCOUNT_TOKENS } from '@contract/limits';
import { NotFoundError } from '@lambdas/domain/errors';
import type { TokenPlace, TokenRecord } from '@lambdas/domain/records';
import { serviceAccountKey } from './keys';
import { managerCheck } from './manager-check';
import {
  createTokenWithinLimit,
  replaceTokenWithinLimit,
  revokeToken,
  type TokenHolder,
} from './token-slot-repository';

/*
 * A service account's static tokens: a person's token machinery (token items, slots, the list index)
 * with the service account's id where a user's stands, its limit, its project's trail, and every write
 * checking that the service account still exists and that its caller still manages the project.
 */

const holderOf = (serviceAccountId: string, { projectId, managerUserId }: TokenPlace): TokenHolder => ({
  limit: MAX_SERVICE_ACCOUNT_TOKENS,
  projectId,
  checks: [
    { write: managerCheck(projectId, managerUserId), refusal: () => new NotFoundError(ErrorText.projectNotFound) },
    {
      write: {
        ConditionCheck: {
          Key: serviceAccountKey(projectId, serviceAccountId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      refusal: () => new NotFoundError(ErrorText.serviceAccountNotFound),
    },
  ],
});

/** Stores a service account's token under its limit, while it exists and its caller manages the project. */
export const createServiceAccountToken = (
  token: TokenRecord,
  now: Date,
  sessionIssuedAt: string,
  event: AuditEvent,
  at: TokenPlace,
): Promise<void> => createTokenWithinLimit(token, now, sessionIssuedAt, event, holderOf(token.userId, at));

/** Replaces a service account's token under the rules of creating one. */
export const replaceServiceAccountToken = (
  old: TokenRecord,
  replacement: TokenRecord,
  stopsAt: string,
  now: Date,
  sessionIssuedAt: string,
  event: AuditEvent,
  at: TokenPlace,
): Promise<void> =>
  replaceTokenWithinLimit(old, replacement, stopsAt, now, sessionIssuedAt, event, holderOf(old.userId, at));

/** Revokes one of a service account's tokens, while it exists and its caller manages the project. */
export const revokeServiceAccountToken = (
  serviceAccountId: string,
  tokenId: string,
  event: AuditEvent,
  at: TokenPlace,
): Promise<void> => revokeToken(serviceAccountId, tokenId, event, holderOf(serviceAccountId, at));
