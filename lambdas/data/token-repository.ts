import type { Scope } from '@contract/scopes';
import { listIndexName, tableSchema } from '@contract/table-schema';
import { firstNoticeDue } from '@lambdas/domain/expiry-notice';
import { getItem, queryAll } from './client';
import { expiryNoticeKeys, tokenKey, tokenListKeys, tokenListPartition } from './keys';

/** A stored API token. Only the hash of the raw token is ever stored. */
export interface TokenRecord {
  readonly tokenId: string;
  /** The owner: the token acts as this user, whatever their e-mail address becomes. */
  readonly userId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly secretHash: string;
  readonly boundIp: string;
  readonly displayPrefix: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  /** Addresses and networks the token works from, canonical; absent: `boundIp` alone. */
  readonly allowedIps?: readonly string[];
  /** The address of that use, canonical (absent on tokens never used since it was recorded). */
  readonly lastUsedIp?: string | null;
  /** The owner's e-mail when they created the token, for the audit trail only (absent on older tokens). */
  readonly ownerEmail?: string;
  /** Once rotated: the token that replaces it. */
  readonly replacedBy?: string;
  /** Once rotated: when it stops working, as if revoked. */
  readonly stopsAt?: string;
}

/** How long an expired (or stopped) token stays listed before DynamoDB's TTL may delete it. */
export const EXPIRED_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** Reads one token by id with a strongly consistent read (the authorizer's one read). */
export const getTokenById = (tokenId: string): Promise<TokenRecord | undefined> =>
  getItem<TokenRecord>(tokenKey(tokenId), true);

/**
 * A token's whole item: its key, its place in its owner's list, its expiry for DynamoDB's TTL, and, for
 * a token that expires, its place in the notice index under the day its first expiry notice is due.
 */
export const tokenItem = (token: TokenRecord) => {
  const expiresAt = token.expiresAt === null ? null : Date.parse(token.expiresAt);
  const noticeDue = firstNoticeDue(token.createdAt, token.expiresAt);
  return {
    ...tokenKey(token.tokenId),
    ...tokenListKeys(token.userId, token.createdAt, token.tokenId),
    ...(noticeDue !== null && expiryNoticeKeys(noticeDue, token.tokenId)),
    entity: 'Token',
    [tableSchema.timeToLiveAttribute]:
      expiresAt === null ? undefined : Math.floor((expiresAt + EXPIRED_RETENTION_MS) / 1000),
    ...token,
  };
};

/** The user's tokens, newest first (list index; a just-created token may take a moment to show). */
export const listTokensByUser = (userId: string): Promise<TokenRecord[]> =>
  queryAll<TokenRecord>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': tokenListPartition(userId) },
    ScanIndexForward: false,
  });
