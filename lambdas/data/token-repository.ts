import { listIndexName, tableSchema } from '@contract/table-schema';
import { firstNoticeDue } from '@lambdas/domain/expiry-notice';
import type { TokenRecord } from '@lambdas/domain/records';
import { getItem, queryAll } from './client';
import { expiryNoticeKeys, tokenKey, tokenListKeys, tokenListPartition } from './keys';

/*
 * A token's own item: its record, its place in its owner's list and in the notice index, and the reads.
 * The writes that add or free a token are the slots' (token-slot-repository.ts); the authorizer's marks
 * on it, token-mark-repository.ts.
 */

/** How long an expired (or stopped) token stays listed before DynamoDB's TTL may delete it. */
export const EXPIRED_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** How long a token got by signing in stays after it expires (the authorizer refuses it from then). */
const SIGNED_IN_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Reads one token by id with a strongly consistent read (the authorizer's one read). */
export const getTokenById = (tokenId: string): Promise<TokenRecord | undefined> =>
  getItem<TokenRecord>(tokenKey(tokenId), true);

/**
 * A token's whole item: its key, its place in its owner's list, its expiry for DynamoDB's TTL, and, for
 * a token that expires, its place in the notice index under the day its first expiry notice is due.
 */
export const tokenItem = (token: TokenRecord) => {
  const expiresAt = token.expiresAt === null ? null : Date.parse(token.expiresAt);
  // A service account has no address to be told at: its tokens are in no notice index.
  const noticeDue = token.serviceAccountProject === undefined ? firstNoticeDue(token.createdAt, token.expiresAt) : null;
  // A token got by signing in lives minutes, is in no list, and is gone a day after it expires.
  const signedIn = token.subject !== undefined;
  const retention = signedIn ? SIGNED_IN_RETENTION_MS : EXPIRED_RETENTION_MS;
  return Object.assign(
    tokenKey(token.tokenId),
    signedIn ? {} : tokenListKeys(token.userId, token.createdAt, token.tokenId),
    noticeDue === null ? {} : expiryNoticeKeys(noticeDue, token.tokenId),
    {
      entity: 'Token',
      [tableSchema.timeToLiveAttribute]: expiresAt === null ? undefined : Math.floor((expiresAt + retention) / 1000),
    },
    token,
  );
};

/** The user's tokens, newest first (list index; a just-created token may take a moment to show). */
export const listTokensByUser = (userId: string): Promise<TokenRecord[]> =>
  queryAll<TokenRecord>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': tokenListPartition(userId) },
    ScanIndexForward: false,
  });
