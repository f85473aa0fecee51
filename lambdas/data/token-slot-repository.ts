import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { tableSchema } from '@contract/table-schema';
import { ConflictError, NotFoundError, ServiceUnavailableError, UnauthorizedError } from '@lambdas/domain/errors';
import type { TokenRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, type TableWrite, transactWrite, updateItem, type WriteOutcome } from './client';
import { tokenKey, tokenSlotsKey } from './keys';
import { firstSlotMap, freeSlot, type StoredSlotMap, slotMapUpdate } from './slot-map';
import { EXPIRED_RETENTION_MS, getTokenById, tokenItem } from './token-repository';

/*
 * A user's token slots: one item per user mapping each unrevoked token to its expiry, and the mark of
 * their offboarding. Every write that adds or frees a token goes through it, so the limit holds.
 */

/** Live tokens a user may hold at once. */
export const TOKEN_LIMIT = 100;

/** A condition a token's transaction holds besides the slots, and what its failure answers. */
export interface HolderCheck {
  readonly write: TableWrite;
  readonly refusal: () => Error;
}

/**
 * Whose tokens a write adds or frees: a user's own, or a service account's (whose id stands as the
 * user's), with its limit, the project whose trail records the event besides the holder's own, and
 * what the transaction checks besides (the service account still exists, its caller still manages it).
 */
export interface TokenHolder {
  readonly limit: number;
  readonly projectId: string | null;
  readonly checks: readonly HolderCheck[];
}

/** A person's tokens: `TOKEN_LIMIT`, recorded in their own trail only. */
export const PERSON: TokenHolder = { limit: TOKEN_LIMIT, projectId: null, checks: [] };
/** Rounds of the optimistic slot update before giving up with a 503 under extreme contention. */
const MAX_ATTEMPTS = 10;

/**
 * A user's slot item as read: each unrevoked token's id and expiry in epoch ms (0: never), and when
 * the user was offboarded, if ever.
 */
interface StoredSlots extends StoredSlotMap {
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
  holder: TokenHolder = PERSON,
): Promise<void> => {
  // The token's item is the same in every round; only the slot map is read and written again.
  const tokenPut: TableWrite = { Put: { Item: tokenItem(token), ConditionExpression: 'attribute_not_exists(PK)' } };
  const recorded = auditEventPut(event, { userId: token.userId, projectId: holder.projectId });
  await withSlots(
    token.userId,
    holder,
    sessionIssuedAt,
    now,
    new Map([[token.tokenId, slotExpiry(token.expiresAt)]]),
    (slotWrite) => [tokenPut, slotWrite, recorded],
  );
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
  holder: TokenHolder = PERSON,
): Promise<void> => {
  const stopsAtMs = Date.parse(stopsAt);
  const markReplaced: TableWrite = {
    Update: {
      Key: tokenKey(old.tokenId),
      UpdateExpression: 'SET replacedBy = :replacement, stopsAt = :stopsAt, #ttl = :ttl',
      ConditionExpression: 'userId = :userId AND attribute_not_exists(replacedBy)',
      ExpressionAttributeNames: { '#ttl': tableSchema.timeToLiveAttribute },
      ExpressionAttributeValues: {
        ':replacement': replacement.tokenId,
        ':stopsAt': stopsAt,
        ':ttl': Math.floor((stopsAtMs + EXPIRED_RETENTION_MS) / 1000),
        ':userId': old.userId,
      },
    },
  };
  const replacementPut: TableWrite = {
    Put: { Item: tokenItem(replacement), ConditionExpression: 'attribute_not_exists(PK)' },
  };
  const recorded = auditEventPut(event, { userId: old.userId, projectId: holder.projectId });
  const slots = new Map([
    [old.tokenId, stopsAtMs],
    [replacement.tokenId, slotExpiry(replacement.expiresAt)],
  ]);
  const outcome = await withSlots(
    old.userId,
    holder,
    sessionIssuedAt,
    now,
    slots,
    (slotWrite) => [markReplaced, replacementPut, slotWrite, recorded],
    [0],
  );
  if (outcome.ok) return;
  const current = await getTokenById(old.tokenId);
  throw current?.userId === old.userId
    ? new ConflictError(ErrorText.tokenRotated)
    : new NotFoundError(ErrorText.tokenNotFound);
};

/** A token's slot value: its expiry in epoch ms, 0 when it never expires. */
const slotExpiry = (expiresAt: string | null): number => (expiresAt === null ? 0 : Date.parse(expiresAt));

/**
 * Writes `items(slotWrite)` and the holder's checks in one transaction with the holder's slots set to
 * `slots` (token id → expiry in epoch ms), read afresh each round: the slot write's version condition
 * makes a concurrent create, rotation or revoke cancel the transaction, and the round runs again on
 * what it wrote. A session issued before its user was offboarded writes nothing (401); a failed check
 * answers its refusal. A failed condition of an item at an index in `answering` is the caller's to
 * explain, answered as `transactWrite` answers it; with none, it returns only once written.
 */
const withSlots = async (
  userId: string,
  holder: TokenHolder,
  sessionIssuedAt: string,
  now: Date,
  slots: ReadonlyMap<string, number>,
  items: (slotWrite: TableWrite) => TableWrite[],
  answering: readonly number[] = [],
): Promise<WriteOutcome> => {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await getItem<StoredSlots>(tokenSlotsKey(userId), true);
    if (stored?.offboardedAt !== undefined && sessionIssuedAt <= stored.offboardedAt) throw new UnauthorizedError();
    const slotWrite = stored
      ? updateSlots(userId, stored, slots, now, holder.limit)
      : firstSlotMap(tokenSlotsKey(userId), 'TokenSlots', slots);
    const own = items(slotWrite);
    const slotIndex = own.indexOf(slotWrite);
    const checked = own.length;
    const outcome = await transactWrite(
      [...own, ...holder.checks.map((check) => check.write)],
      [slotIndex, ...answering, ...holder.checks.map((_check, index) => checked + index)],
    );
    const failedCheck = holder.checks.find(
      (_check, index) => !outcome.ok && outcome.conditionFailed.includes(checked + index),
    );
    if (failedCheck) throw failedCheck.refusal();
    // Another create, rotation or revoke changed the slots since they were read: read them again.
    if (outcome.ok || !outcome.conditionFailed.includes(slotIndex)) return outcome;
    if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError({ cause: outcome.cause });
  }
};

/** Whether a slot of this expiry still counts against the limit at `now`. */
const isLive = (expiry: number, now: Date): boolean => expiry === 0 || expiry > now.getTime();

/**
 * Sets `slots` in the slots read and frees the ones no longer live in the same write, unless the holder
 * would then hold more than `limit` live tokens.
 */
const updateSlots = (
  userId: string,
  stored: StoredSlots,
  slots: ReadonlyMap<string, number>,
  now: Date,
  limit: number,
): TableWrite => {
  const after = [...new Map([...Object.entries(stored.slots), ...slots])];
  const live = after.filter(([, expiry]) => isLive(expiry, now));
  if (live.length > limit) throw new ConflictError(ErrorText.tokenLimit);
  const freed = after.filter(([, expiry]) => !isLive(expiry, now)).map(([tokenId]) => tokenId);
  return slotMapUpdate(tokenSlotsKey(userId), stored, new Map(live.filter(([tokenId]) => slots.has(tokenId))), freed);
};

/**
 * Deletes one of the holder's tokens and frees its slot, with its event; 404 when it is not the
 * holder's live token, or a check's refusal.
 */
export const revokeToken = async (
  userId: string,
  tokenId: string,
  event: AuditEvent,
  holder: TokenHolder = PERSON,
): Promise<void> => {
  const outcome = await transactWrite(
    [
      {
        Delete: {
          Key: tokenKey(tokenId),
          ConditionExpression: 'userId = :userId',
          ExpressionAttributeValues: { ':userId': userId },
        },
      },
      freeSlot(tokenSlotsKey(userId), tokenId),
      auditEventPut(event, { userId, projectId: holder.projectId }),
      ...holder.checks.map((check) => check.write),
    ],
    [0, ...holder.checks.map((_check, index) => 3 + index)],
  );
  if (outcome.ok) return;
  const failedCheck = holder.checks.find((_check, index) => outcome.conditionFailed.includes(3 + index));
  throw failedCheck ? failedCheck.refusal() : new NotFoundError(ErrorText.tokenNotFound);
};

/**
 * Marks a user offboarded (a session issued before now can no longer create tokens) and answers the
 * ids of every token the user still holds a slot for. Bumping the version makes a create that read
 * the slots before the mark fail its condition, read again and see it.
 */
export const markOffboarded = async (userId: string, now: Date): Promise<string[]> => {
  const stored = await updateItem<StoredSlots>({
    Key: tokenSlotsKey(userId),
    UpdateExpression:
      'SET entity = :entity, offboardedAt = :now, slots = if_not_exists(slots, :none), version = if_not_exists(version, :zero) + :one',
    ExpressionAttributeValues: {
      ':entity': 'TokenSlots',
      ':now': now.toISOString(),
      ':none': {},
      ':zero': 0,
      ':one': 1,
    },
  });
  return Object.keys(stored?.slots ?? {});
};
