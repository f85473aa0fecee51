import type { AuditEvent, DenialReason } from '@contract/audit';
import { auditEventPut } from './audit-repository';
import { transactWrite, writeIfCondition } from './client';
import { tokenKey } from './keys';

/*
 * The authorizer's marks on a token item: when it was last used, and when a denial of each reason was
 * last recorded. Each write is rate-limited by its own condition.
 */

/**
 * Records a use of the token and its address, at most once per `intervalMs`, in one write; concurrent
 * writers lose the condition harmlessly.
 */
export const touchTokenLastUsed = async (tokenId: string, now: Date, intervalMs: number, ip: string): Promise<void> => {
  await writeIfCondition({
    Update: {
      Key: tokenKey(tokenId),
      UpdateExpression: 'SET lastUsedAt = :now, lastUsedIp = :ip',
      ConditionExpression: 'attribute_exists(PK) AND (lastUsedAt = :null OR lastUsedAt < :threshold)',
      ExpressionAttributeValues: {
        ':now': now.toISOString(),
        ':ip': ip,
        ':null': null,
        ':threshold': new Date(now.getTime() - intervalMs).toISOString(),
      },
    },
  });
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
  denial: { tokenId: string; userId: string; reason: DenialReason; serviceAccount?: { projectId: string } },
  event: AuditEvent,
  now: Date,
  intervalMs: number,
): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      {
        Update: {
          Key: tokenKey(denial.tokenId),
          UpdateExpression: 'SET #mark = :now',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#mark) OR #mark < :threshold)',
          ExpressionAttributeNames: { '#mark': denialMark(denial.reason) },
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':threshold': new Date(now.getTime() - intervalMs).toISOString(),
          },
        },
      },
      // A service account's denial is its project's to see, in the project's trail.
      auditEventPut(event, { userId: denial.userId, projectId: denial.serviceAccount?.projectId ?? null }),
    ],
    [0],
  );
  return outcome.ok;
};
