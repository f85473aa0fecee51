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
 * offboarding bumps the version, so a create racing it reads the mark and is refused too. A token
 * that expires enters the notice index under the day its first expiry notice is due.
 */
export const createTokenWithinLimit = async (
  token: TokenRecord,
  now: Date,
  sessionIssuedAt: string,
  event: AuditEvent,
): Promise<void> => {
  const expiresAt = token.expiresAt === null ? null : Date.parse(token.expiresAt);
  const noticeDue = firstNoticeDue(token.createdAt, token.expiresAt);
  // The token's item is the same in every round; only the slot map is read and written again.
  const tokenItem = toItem({
    ...tokenKey(token.tokenId),
    ...tokenListKeys(token.userId, token.createdAt, token.tokenId),
    ...(noticeDue !== null && expiryNoticeKeys(noticeDue, token.tokenId)),
    entity: 'Token',
    [tableSchema.timeToLiveAttribute]:
      expiresAt === null ? undefined : Math.floor((expiresAt + EXPIRED_RETENTION_MS) / 1000),
    ...token,
  });
  const slot: Slot = { userId: token.userId, tokenId: token.tokenId, expiry: expiresAt ?? 0 };
  const recorded = auditEventPut(event, { userId: token.userId, projectId: null });
  for (let attempt = 1; ; attempt += 1) {
    const stored = await getItem<StoredSlots>(tokenSlotsKey(token.userId), true);
    if (stored?.offboardedAt !== undefined && sessionIssuedAt <= stored.offboardedAt) throw new UnauthorizedError();
    const slotWrite = stored ? takeSlot(slot, stored, now) : firstSlot(slot);
    try {
      await transactWrite([
        { Put: { TableName: tableName, Item: tokenItem, ConditionExpression: 'attribute_not_exists(PK)' } },
        slotWrite,
        recorded,
      ]);
      return;
    } catch (error) {
      // Another create or revoke changed the slots since they were read: read them again.
      if (!conditionFailedAt(error, 1)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError({ cause: error });
    }
  }
};

/** The slot a new token takes in its owner's slot item: its id and expiry in epoch ms (0: never). */
interface Slot {
  readonly userId: string;
  readonly tokenId: string;
  readonly expiry: number;
}

/** The slot item of a user's first token. */
const firstSlot = (slot: Slot): TransactWriteItem => ({
  Put: {
    TableName: tableName,
    Item: toItem({
      ...tokenSlotsKey(slot.userId),
      entity: 'TokenSlots',
      slots: { [slot.tokenId]: slot.expiry },
      version: 1,
    }),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/**
 * Adds the token to the slots read and frees the expired ones in the same write, unless the user
 * already holds `TOKEN_LIMIT` live tokens. The write names only the slots it changes, so it does
 * not grow with the map; the version read guards it.
 */
const takeSlot = (slot: Slot, stored: StoredSlots, now: Date): TransactWriteItem => {
  const expired = Object.entries(stored.slots)
    .filter(([, expiry]) => expiry !== 0 && expiry <= now.getTime())
    .map(([tokenId]) => tokenId);
  if (Object.keys(stored.slots).length - expired.length >= TOKEN_LIMIT) throw new ConflictError(ErrorText.tokenLimit);
  const freed = expired.map((_, index) => `slots.#expired${index}`);
  return {
    Update: {
      TableName: tableName,
      Key: marshall(tokenSlotsKey(slot.userId)),
      UpdateExpression: `SET slots.#token = :expiry, version = :next${freed.length > 0 ? ` REMOVE ${freed.join(', ')}` : ''}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: {
        '#token': slot.tokenId,
        ...Object.fromEntries(expired.map((tokenId, index) => [`#expired${index}`, tokenId])),
      },
      ExpressionAttributeValues: marshall({
        ':expiry': slot.expiry,
        ':next': stored.version + 1,
        ':version': stored.version,
      }),
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
