import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { SHARE_LIMIT } from '@contract/limits';
import { listIndexName, tableSchema } from '@contract/table-schema';
import { ConflictError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { ShareRecord, ShareSummary } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { batchGetItems, getItem, queryAll, type TableWrite, transactWrite } from './client';
import { shareKey, shareListKeys, shareListPartition, shareSlotsKey } from './keys';

/*
 * Shares: each one's item (its ciphertext and limits, in its creator's list), and each person's share
 * slots, one item mapping every share they created to its expiry, through which every create goes, so
 * that the limit of live shares holds under concurrent creates. A reveal writes the share alone (and
 * its event): the last view removes the share but leaves its slot, which the next create that finds
 * its creator at the limit frees.
 */

/** Rounds of the optimistic slot update before giving up with a 503 under extreme contention. */
const MAX_SLOT_ATTEMPTS = 10;

/** A person's share slots as read: each share's id and expiry in epoch ms. */
interface StoredShareSlots {
  readonly version: number;
  readonly slots: Readonly<Record<string, number>>;
}

/** A share's whole item: its key, its place in its creator's list, and its expiry for DynamoDB's TTL. */
const shareItem = (share: ShareRecord) =>
  Object.assign(
    shareKey(share.shareId),
    shareListKeys(share.userId, share.createdAt, share.shareId),
    { entity: 'Share', [tableSchema.timeToLiveAttribute]: Math.ceil(Date.parse(share.expiresAt) / 1000) },
    share,
  );

/** One share by id; strongly consistent when it guards a write. */
export const getShare = (shareId: string, consistent: boolean): Promise<ShareRecord | undefined> =>
  getItem<ShareRecord>(shareKey(shareId), consistent);

/** The fields of a share its creator's list shows: never the ciphertext. */
const SUMMARY_FIELDS = [
  'shareId',
  'userId',
  'creatorEmail',
  'createdAt',
  'expiresAt',
  'maxViews',
  'viewsLeft',
  'recipients',
];

/**
 * The person's shares not yet spent, newest first, expired ones included (the list index; a share
 * just created or spent may take a moment to show so). The ciphertexts stay in the table.
 */
export const listSharesByUser = (userId: string): Promise<ShareSummary[]> =>
  queryAll<ShareSummary>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ProjectionExpression: SUMMARY_FIELDS.map((_, index) => `#f${index}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(SUMMARY_FIELDS.map((field, index) => [`#f${index}`, field])),
    ExpressionAttributeValues: { ':pk': shareListPartition(userId) },
    ScanIndexForward: false,
  });

/**
 * Stores a share with its event unless its creator would hold more than `SHARE_LIMIT` live shares
 * (409). The creator's slot map is read strongly, freed of expired shares and, at the limit, of spent
 * ones, and written in the share's transaction on the condition that its version is still the one
 * read: a concurrent create makes it fail, and the round runs again.
 */
export const createShareWithinLimit = async (share: ShareRecord, now: Date, event: AuditEvent): Promise<void> => {
  const sharePut: TableWrite = { Put: { Item: shareItem(share), ConditionExpression: 'attribute_not_exists(PK)' } };
  const recorded = auditEventPut(event, { userId: share.userId, projectId: null });
  for (let attempt = 1; ; attempt += 1) {
    const stored = await getItem<StoredShareSlots>(shareSlotsKey(share.userId), true);
    const slotWrite = stored
      ? await updateSlots(share, stored, now)
      : {
          Put: {
            Item: Object.assign(shareSlotsKey(share.userId), {
              entity: 'ShareSlots',
              slots: { [share.shareId]: Date.parse(share.expiresAt) },
              version: 1,
            }),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        };
    const outcome = await transactWrite([sharePut, slotWrite, recorded], [1]);
    if (outcome.ok) return;
    if (attempt >= MAX_SLOT_ATTEMPTS) throw new ServiceUnavailableError({ cause: outcome.cause });
  }
};

/**
 * The slot write of a new share: its slot set, the slots of shares expired (and, at the limit, of
 * shares spent) removed, on the version read; a 409 when the live ones are still at the limit.
 */
const updateSlots = async (share: ShareRecord, stored: StoredShareSlots, now: Date): Promise<TableWrite> => {
  const slots = Object.entries(stored.slots);
  let live = slots.filter(([, expiry]) => expiry > now.getTime()).map(([shareId]) => shareId);
  if (live.length >= SHARE_LIMIT) {
    const existing = await batchGetItems<{ shareId: string }>(live.map(shareKey), true);
    const kept = new Set(existing.map((item) => item.shareId));
    live = live.filter((shareId) => kept.has(shareId));
    if (live.length >= SHARE_LIMIT) throw new ConflictError(ErrorText.shareLimit);
  }
  const keep = new Set(live);
  const names: Record<string, string> = { '#new': share.shareId };
  const freed = slots
    .filter(([shareId]) => !keep.has(shareId))
    .map(([shareId], index) => {
      names[`#freed${index}`] = shareId;
      return `slots.#freed${index}`;
    });
  return {
    Update: {
      Key: shareSlotsKey(share.userId),
      UpdateExpression: `SET slots.#new = :expiry, version = :next${freed.length > 0 ? ` REMOVE ${freed.join(', ')}` : ''}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':expiry': Date.parse(share.expiresAt),
        ':next': stored.version + 1,
        ':version': stored.version,
      },
    },
  };
};

/**
 * Spends one view of `share` as read, with its event in its creator's trail: the views lowered, or at
 * the last one the share removed, only if its views are still the ones read. False when they are not
 * (another reveal spent one, or the creator withdrew it): the caller reads it again.
 */
export const spendView = async (share: ShareRecord, event: AuditEvent): Promise<boolean> => {
  const unchanged = {
    ConditionExpression: 'viewsLeft = :seen',
    ExpressionAttributeValues: { ':seen': share.viewsLeft },
  };
  const spend: TableWrite =
    share.viewsLeft <= 1
      ? { Delete: { Key: shareKey(share.shareId), ...unchanged } }
      : {
          Update: {
            Key: shareKey(share.shareId),
            UpdateExpression: 'SET viewsLeft = :left',
            ConditionExpression: unchanged.ConditionExpression,
            ExpressionAttributeValues: { ...unchanged.ExpressionAttributeValues, ':left': share.viewsLeft - 1 },
          },
        };
  const outcome = await transactWrite([spend, auditEventPut(event, { userId: share.userId, projectId: null })], [0]);
  return outcome.ok;
};

/**
 * Withdraws one of the person's live shares and frees its slot, with its event; false when it is not
 * their share, or spent or expired already.
 */
export const deleteShare = async (userId: string, shareId: string, now: Date, event: AuditEvent): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      {
        Delete: {
          Key: shareKey(shareId),
          ConditionExpression: 'userId = :userId AND expiresAt > :now',
          ExpressionAttributeValues: { ':userId': userId, ':now': now.toISOString() },
        },
      },
      {
        Update: {
          Key: shareSlotsKey(userId),
          UpdateExpression: 'REMOVE slots.#shareId SET version = version + :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#shareId': shareId },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      auditEventPut(event, { userId, projectId: null }),
    ],
    [0, 1],
  );
  return outcome.ok;
};
