import { type TransactWriteItem, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent, DenialReason } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { Scope } from '@contract/scopes';
import { listIndexName, tableSchema } from '@contract/table-schema';
import { ConflictError, NotFoundError, ServiceUnavailableError, UnauthorizedError } from '@lambdas/domain/errors';
import { firstNoticeDue } from '@lambdas/domain/expiry-notice';
import { auditEventPut } from './audit-repository';
import {
  conditionFailedAt,
  dynamo,
  getItem,
  queryAll,
  tableName,
  toItem,
  transactWrite,
  writeIfCondition,
} from './client';
import { expiryNoticeKeys, tokenKey, tokenListKeys, tokenListPartition, tokenSlotsKey } from './keys';

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

/** Live tokens a user may hold at once. */
export const TOKEN_LIMIT = 100;
/** How long an expired token stays listed before DynamoDB's TTL may delete it. */
const EXPIRED_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
/** Rounds of the optimistic slot update before giving up with a 503 under extreme contention. */
const MAX_ATTEMPTS = 10;

/** Reads one token by id with a strongly consistent read (the authorizer's one read). */
export const getTokenById = (tokenId: string): Promise<TokenRecord | undefined> =>
  getItem<TokenRecord>(tokenKey(tokenId), true);

/**
 * A user's slot item as read: each unrevoked token's id and expiry in epoch ms (0: never), and when
 * the user was offboarded, if ever.
 */
interface StoredSlots {
  readonly version: number;
  readonly slots: Readonly<Record<string, number>>;
  readonly offboardedAt?: string;
}

/**
 * Stores a new token unless the user already holds `TOKEN_LIMIT` live ones. The user's slot item
 * maps each unrevoked token to its expiry (0: never); the token and the slot map are written in one
 * transaction guarded by the slot map's version, so concurrent creates can never exceed the limit.
 * A session issued before its user was offboarded creates nothing (401): it may live on at the
 * identity provider for up to an hour, and a token minted with it would outlive the offboarding. The
 * offboarding bumps the version, so a create racing it reads the mark and is refused too.
 */
export const createTokenWithinLimit = async (
  token: TokenRecord,
  now: Date,
  sessionIssuedAt: string,
  event: AuditEvent,
): Promise<void> => {
  // The token's item is the same in every round; only the slot map is read and written again.
  const tokenPut: TransactWriteItem = {
    Put: { TableName: tableName, Item: tokenItem(token), ConditionExpression: 'attribute_not_exists(PK)' },
  };
  const recorded = auditEventPut(event, { userId: token.userId, projectId: null });
  await withSlots(token.userId, sessionIssuedAt, now, { [token.tokenId]: slotExpiry(token.expiresAt) }, (slotWrite) => [
    tokenPut,
    slotWrite,
    recorded,
  ]);
};

/**
 * Replaces `old` (as read) with `replacement`: in one transaction, `old` is marked replaced and stops
 * at `stopsAt` (its slot moves there, so both count against the limit until then), the replacement is
 * stored and takes a slot, and the event is recorded. The mark's condition (still the owner's, not
 * rotated yet) makes a rotation that lost a race to another rotation or a revoke fail: a read then
 * says which (409 or 404). The limit and the offboarding rule are those of creating a token.
 */
export const replaceTokenWithinLimit = async (
  old: TokenRecord,
  replacement: TokenRecord,
  stopsAt: string,
  now: Date,
  sessionIssuedAt: string,
  event: AuditEvent,
): Promise<void> => {
  const stopsAtMs = Date.parse(stopsAt);
  const markReplaced: TransactWriteItem = {
    Update: {
      TableName: tableName,
      Key: marshall(tokenKey(old.tokenId)),
      UpdateExpression: 'SET replacedBy = :replacement, stopsAt = :stopsAt, #ttl = :ttl',
      ConditionExpression: 'userId = :userId AND attribute_not_exists(replacedBy)',
      ExpressionAttributeNames: { '#ttl': tableSchema.timeToLiveAttribute },
      ExpressionAttributeValues: marshall({
        ':replacement': replacement.tokenId,
        ':stopsAt': stopsAt,
        ':ttl': Math.floor((stopsAtMs + EXPIRED_RETENTION_MS) / 1000),
        ':userId': old.userId,
      }),
    },
  };
  const replacementPut: TransactWriteItem = {
    Put: { TableName: tableName, Item: tokenItem(replacement), ConditionExpression: 'attribute_not_exists(PK)' },
  };
  const recorded = auditEventPut(event, { userId: old.userId, projectId: null });
  const slots = { [old.tokenId]: stopsAtMs, [replacement.tokenId]: slotExpiry(replacement.expiresAt) };
  try {
    await withSlots(old.userId, sessionIssuedAt, now, slots, (slotWrite) => [
      markReplaced,
      replacementPut,
      slotWrite,
      recorded,
    ]);
  } catch (error) {
    if (!conditionFailedAt(error, 0)) throw error;
    const current = await getTokenById(old.tokenId);
    throw current?.userId === old.userId
      ? new ConflictError(ErrorText.tokenRotated)
      : new NotFoundError(ErrorText.tokenNotFound);
  }
};

/**
 * A token's whole item: its key, its place in its owner's list, its expiry for DynamoDB's TTL, and, for
 * a token that expires, its place in the notice index under the day its first expiry notice is due.
 */
const tokenItem = (token: TokenRecord) => {
  const expiresAt = token.expiresAt === null ? null : Date.parse(token.expiresAt);
  const noticeDue = firstNoticeDue(token.createdAt, token.expiresAt);
  return toItem({
    ...tokenKey(token.tokenId),
    ...tokenListKeys(token.userId, token.createdAt, token.tokenId),
    ...(noticeDue !== null && expiryNoticeKeys(noticeDue, token.tokenId)),
    entity: 'Token',
    [tableSchema.timeToLiveAttribute]:
      expiresAt === null ? undefined : Math.floor((expiresAt + EXPIRED_RETENTION_MS) / 1000),
    ...token,
  });
};

/** A token's slot value: its expiry in epoch ms, 0 when it never expires. */
const slotExpiry = (expiresAt: string | null): number => (expiresAt === null ? 0 : Date.parse(expiresAt));

/**
 * Writes `items(slotWrite)` in one transaction with the user's slots set to `slots` (token id → expiry
 * in epoch ms), read afresh each round: the slot write's version condition makes a concurrent create,
 * rotation or revoke cancel the transaction, and the round runs again on what it wrote. A session
 * issued before its user was offboarded writes nothing (401).
 */
const withSlots = async (
  userId: string,
  sessionIssuedAt: string,
  now: Date,
  slots: Readonly<Record<string, number>>,
  items: (slotWrite: TransactWriteItem) => TransactWriteItem[],
): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await getItem<StoredSlots>(tokenSlotsKey(userId), true);
    if (stored?.offboardedAt !== undefined && sessionIssuedAt <= stored.offboardedAt) throw new UnauthorizedError();
    const slotWrite = stored ? updateSlots(userId, stored, slots, now) : firstSlots(userId, slots);
    const transaction = items(slotWrite);
    try {
      await transactWrite(transaction);
      return;
    } catch (error) {
      // Another create, rotation or revoke changed the slots since they were read: read them again.
      if (!conditionFailedAt(error, transaction.indexOf(slotWrite))) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError({ cause: error });
    }
  }
};

/** Whether a slot of this expiry still counts against the limit at `now`. */
const isLive = (expiry: number, now: Date): boolean => expiry === 0 || expiry > now.getTime();

/** The slot item of a user's first token. */
const firstSlots = (userId: string, slots: Readonly<Record<string, number>>): TransactWriteItem => ({
  Put: {
    TableName: tableName,
    Item: toItem({ ...tokenSlotsKey(userId), entity: 'TokenSlots', slots, version: 1 }),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/**
 * Sets `slots` in the slots read and frees the ones no longer live in the same write, unless the user
 * would then hold more than `TOKEN_LIMIT` live tokens. The write names only the slots it changes, so
 * it does not grow with the map; the version read guards it.
 */
const updateSlots = (
  userId: string,
  stored: StoredSlots,
  slots: Readonly<Record<string, number>>,
  now: Date,
): TransactWriteItem => {
  const after = Object.entries({ ...stored.slots, ...slots });
  const live = after.filter(([, expiry]) => isLive(expiry, now));
  if (live.length > TOKEN_LIMIT) throw new ConflictError(ErrorText.tokenLimit);
  const names: Record<string, string> = {};
  const values: Record<string, number> = { ':next': stored.version + 1, ':version': stored.version };
  const assignments = live
    .filter(([tokenId]) => tokenId in slots)
    .map(([tokenId, expiry], index) => {
      names[`#set${index}`] = tokenId;
      values[`:set${index}`] = expiry;
      return `slots.#set${index} = :set${index}`;
    });
  const removals = after
    .filter(([, expiry]) => !isLive(expiry, now))
    .map(([tokenId], index) => {
      names[`#freed${index}`] = tokenId;
      return `slots.#freed${index}`;
    });
  return {
    Update: {
      TableName: tableName,
      Key: marshall(tokenSlotsKey(userId)),
      UpdateExpression: `SET ${[...assignments, 'version = :next'].join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
    },
  };
};

/** The user's tokens, newest first (list index; a just-created token may take a moment to show). */
export const listTokensByUser = (userId: string): Promise<TokenRecord[]> =>
  queryAll<TokenRecord>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: marshall({ ':pk': tokenListPartition(userId) }),
    ScanIndexForward: false,
  });

/** Deletes one of the user's tokens and frees its slot, with its event; 404 when it is not the user's live token. */
export const revokeToken = async (userId: string, tokenId: string, event: AuditEvent): Promise<void> => {
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: marshall(tokenKey(tokenId)),
          ConditionExpression: 'userId = :userId',
          ExpressionAttributeValues: marshall({ ':userId': userId }),
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: marshall(tokenSlotsKey(userId)),
          UpdateExpression: 'REMOVE slots.#tokenId SET version = version + :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#tokenId': tokenId },
          ExpressionAttributeValues: marshall({ ':one': 1 }),
        },
      },
      auditEventPut(event, { userId, projectId: null }),
    ]);
  } catch (error) {
    if (conditionFailedAt(error, 0)) throw new NotFoundError(ErrorText.tokenNotFound);
    throw error;
  }
};

/**
 * Records a use of the token and its address, at most once per `intervalMs`, in one write; concurrent
 * writers lose the condition harmlessly.
 */
export const touchTokenLastUsed = async (tokenId: string, now: Date, intervalMs: number, ip: string): Promise<void> => {
  await writeIfCondition(
    new UpdateItemCommand({
      TableName: tableName,
      Key: marshall(tokenKey(tokenId)),
      UpdateExpression: 'SET lastUsedAt = :now, lastUsedIp = :ip',
      ConditionExpression: 'attribute_exists(PK) AND (lastUsedAt = :null OR lastUsedAt < :threshold)',
      ExpressionAttributeValues: marshall({
        ':now': now.toISOString(),
        ':ip': ip,
        ':null': null,
        ':threshold': new Date(now.getTime() - intervalMs).toISOString(),
      }),
    }),
  );
};

/** The token item's attribute that holds when a denial of this reason was last recorded. */
const denialMark = (reason: DenialReason): string => `deniedAt_${reason}`;

/**
 * Records a denial of a genuine token with its event, at most once per token, reason and `intervalMs`:
 * the token's mark for the reason and the event are one transaction whose condition is the mark's
 * age, so replaying a stolen token cannot turn denials into unbounded writes. Answers whether it
 * recorded (false: one was recorded within the interval, or the token is gone).
 */
export const recordTokenDenial = async (
  denial: { tokenId: string; userId: string; reason: DenialReason },
  event: AuditEvent,
  now: Date,
  intervalMs: number,
): Promise<boolean> => {
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: marshall(tokenKey(denial.tokenId)),
          UpdateExpression: 'SET #mark = :now',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#mark) OR #mark < :threshold)',
          ExpressionAttributeNames: { '#mark': denialMark(denial.reason) },
          ExpressionAttributeValues: marshall({
            ':now': now.toISOString(),
            ':threshold': new Date(now.getTime() - intervalMs).toISOString(),
          }),
        },
      },
      auditEventPut(event, { userId: denial.userId, projectId: null }),
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
};

/**
 * Marks a user offboarded (a session issued before now can no longer create tokens) and answers the
 * ids of every token the user still holds a slot for. Bumping the version makes a create that read
 * the slots before the mark fail its condition, read again and see it.
 */
export const markOffboarded = async (userId: string, now: Date): Promise<string[]> => {
  const { Attributes } = await dynamo.send(
    new UpdateItemCommand({
      TableName: tableName,
      Key: marshall(tokenSlotsKey(userId)),
      UpdateExpression:
        'SET entity = :entity, offboardedAt = :now, slots = if_not_exists(slots, :none), version = if_not_exists(version, :zero) + :one',
      ExpressionAttributeValues: marshall({
        ':entity': 'TokenSlots',
        ':now': now.toISOString(),
        ':none': {},
        ':zero': 0,
        ':one': 1,
      }),
      ReturnValues: 'ALL_NEW',
    }),
  );
  const stored = Attributes && (unmarshall(Attributes) as StoredSlots);
  return Object.keys(stored?.slots ?? {});
};
