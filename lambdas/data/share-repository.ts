import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { SHARE_LIMIT } from '@contract/limits';
import { listIndexName, tableSchema } from '@contract/table-schema';
import { ConflictError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { ShareRecord, ShareSummary } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { batchGetItems, getItem, queryAll, type TableWrite, transactWrite } from './client';
import { shareKey, shareListKeys, shareListPartition, shareSlotsKey } from './keys';
import { firstSlotMap, freeSlot, type StoredSlotMap, slotMapUpdate } from './slot-map';
import { claimStillNames } from './user-repository';

/*
 * Shares: each one's item (its ciphertext and limits, in its creator's list), and each person's share
 * slots, one item mapping every share they created to its expiry, through which every create goes, so
 * that the limit of live shares holds under concurrent creates. A reveal writes the share alone (and
 * its event): the last view removes the share but leaves its slot, which the next create that finds
 * its creator at the limit frees.
 */

/** Rounds of the optimistic slot update before giving up with a 503 under extreme contention. */
const MAX_SLOT_ATTEMPTS = 10;

/** A share's whole item: its key, its place in its creator's list, and its expiry for DynamoDB's TTL. */
const shareItem = (share: ShareRecord) =>
  Object.assign(
    shareKey(share.shareId),
    shareListKeys(share.userId, share.createdAt, share.shareId),
    { entity: 'Share', [tableSchema.timeToLiveAttribute]: Math.ceil(Date.parse(share.expiresAt) / 1000) },
    share,
  );

/** One share by id, strongly consistent: it decides access and guards the reveal's write. */
export const getShare = (shareId: string): Promise<ShareRecord | undefined> =>
  getItem<ShareRecord>(shareKey(shareId), true);

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
    const stored = await getItem<StoredSlotMap>(shareSlotsKey(share.userId), true);
    const slotWrite = stored
      ? await updateSlots(share, stored, now)
      : firstSlotMap(
          shareSlotsKey(share.userId),
          'ShareSlots',
          new Map([[share.shareId, Date.parse(share.expiresAt)]]),
        );
    const outcome = await transactWrite([sharePut, slotWrite, recorded], [1]);
    if (outcome.ok) return;
    if (attempt >= MAX_SLOT_ATTEMPTS) throw new ServiceUnavailableError({ cause: outcome.cause });
  }
};

/**
 * The slot write of a new share: its slot set, the slots of shares expired (and, at the limit, of
 * shares spent) removed, on the version read; a 409 when the live ones are still at the limit.
 */
const updateSlots = async (share: ShareRecord, stored: StoredSlotMap, now: Date): Promise<TableWrite> => {
  const slots = Object.entries(stored.slots);
  let live = slots.filter(([, expiry]) => expiry > now.getTime()).map(([shareId]) => shareId);
  if (live.length >= SHARE_LIMIT) {
    const existing = await batchGetItems<{ shareId: string }>(live.map(shareKey), true);
    const kept = new Set(existing.map((item) => item.shareId));
    live = live.filter((shareId) => kept.has(shareId));
    if (live.length >= SHARE_LIMIT) throw new ConflictError(ErrorText.shareLimit);
  }
  const keep = new Set(live);
  return slotMapUpdate(
    shareSlotsKey(share.userId),
    stored,
    new Map([[share.shareId, Date.parse(share.expiresAt)]]),
    slots.filter(([shareId]) => !keep.has(shareId)).map(([shareId]) => shareId),
  );
};

/**
 * Spends one view of `share` as read, with its event in its creator's trail: the views lowered, or at
 * the last one the share removed, only if its views are still the ones read and, for a share addressed
 * to recipients, the claim on the address the caller was found to hold still names them. False when
 * either changed (another reveal spent one, the creator withdrew it, the address moved): the caller
 * reads it again.
 */
export const spendView = async (
  share: ShareRecord,
  event: AuditEvent,
  heldAddress: { readonly email: string; readonly userId: string } | undefined,
): Promise<boolean> => {
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
  const writes: TableWrite[] = [spend, auditEventPut(event, { userId: share.userId, projectId: null })];
  if (heldAddress) writes.push(claimStillNames(heldAddress.email, heldAddress.userId));
  const outcome = await transactWrite(writes, heldAddress ? [0, 2] : [0]);
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
      freeSlot(shareSlotsKey(userId), shareId),
      auditEventPut(event, { userId, projectId: null }),
    ],
    [0, 1],
  );
  return outcome.ok;
};
