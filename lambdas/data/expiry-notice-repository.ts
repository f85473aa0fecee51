import type { AuditEvent } from '@contract/audit';
import { noticeIndexName } from '@contract/table-schema';
import type { DueNotice } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { queryAll, transactWrite, writeIfCondition } from './client';
import { expiryNoticeKeys, noticeDayPartition, tokenKey } from './keys';

/**
 * The notices due by `now` on one day (UTC, `YYYY-MM-DD`), in the order they fell due. The index is
 * eventually consistent; every write below is conditional on the token itself.
 */
export const listDueNotices = (day: string, now: Date): Promise<DueNotice[]> =>
  queryAll<DueNotice>({
    IndexName: noticeIndexName,
    KeyConditionExpression: 'GSI2PK = :day AND GSI2SK < :until',
    // `~` sorts after every character of a token id, so a notice due this very millisecond is in.
    ExpressionAttributeValues: { ':day': noticeDayPartition(day), ':until': `${now.toISOString()}#~` },
  });

/** The token item's attribute that holds when its notice of this many days left was sent. */
const sentMark = (daysLeft: number): string => `noticeSentAt_${daysLeft}`;

/**
 * Sends one notice: marks it sent on the token, files the token under its next notice (or takes it
 * out of the notice index after the last), and puts the `token.expiring` event in the owner's trail,
 * in one transaction. Its condition makes a retry or an overlapping run send nothing twice and
 * nothing for a token that is revoked (gone), replaced by a rotation, or expired, or whose entry
 * another run has moved since it was read. Answers whether it sent.
 */
export const sendExpiryNotice = async (
  notice: DueNotice,
  daysLeft: number,
  nextDueAt: string | null,
  event: AuditEvent,
  now: Date,
): Promise<boolean> => {
  const next = nextDueAt === null ? undefined : expiryNoticeKeys(nextDueAt, notice.tokenId);
  const outcome = await transactWrite(
    [
      {
        Update: {
          Key: tokenKey(notice.tokenId),
          UpdateExpression: next
            ? 'SET #sent = :now, GSI2PK = :nextPk, GSI2SK = :nextSk'
            : 'SET #sent = :now REMOVE GSI2PK, GSI2SK',
          ConditionExpression:
            'GSI2SK = :seen AND attribute_not_exists(#sent) AND attribute_not_exists(replacedBy) AND expiresAt > :now',
          ExpressionAttributeNames: { '#sent': sentMark(daysLeft) },
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':seen': notice.GSI2SK,
            ...(next && { ':nextPk': next.GSI2PK, ':nextSk': next.GSI2SK }),
          },
        },
      },
      auditEventPut(event, { userId: notice.userId, projectId: null }),
    ],
    [0],
  );
  return outcome.ok;
};

/**
 * Takes a token out of the notice index when no notice can come any more: it has expired, or a
 * rotation replaced it. Conditional on the entry read, so it never undoes another run's move; a token
 * that is neither is left as it is. Answers whether it retired the entry.
 */
export const retireExpiryNotice = (notice: DueNotice, now: Date): Promise<boolean> =>
  writeIfCondition({
    Update: {
      Key: tokenKey(notice.tokenId),
      UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
      ConditionExpression: 'GSI2SK = :seen AND (expiresAt <= :now OR attribute_exists(replacedBy))',
      ExpressionAttributeValues: { ':seen': notice.GSI2SK, ':now': now.toISOString() },
    },
  });
