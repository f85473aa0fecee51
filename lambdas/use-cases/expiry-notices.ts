import type { AuditEvent } from '@contract/audit';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import { noticeDays, noticeDueAt } from '@lambdas/domain/expiry-notice';
import type { DueNotice } from '@lambdas/domain/records';

/** What a run reads and writes (the expiry-notice repository; an in-memory fake in unit tests). */
export interface ExpiryNoticeStore {
  /** The notices due by `now` on one day (UTC, `YYYY-MM-DD`). */
  listDueNotices(day: string, now: Date): Promise<DueNotice[]>;
  /**
   * Records the event and moves the entry to its next notice (or drops it), unless the token or the
   * entry changed since it was read; answers whether it sent.
   */
  sendExpiryNotice(
    notice: DueNotice,
    daysLeft: number,
    nextDueAt: string | null,
    event: AuditEvent,
    now: Date,
  ): Promise<boolean>;
  /** Drops the entry of a token no notice can come for, unless it changed since it was read; answers whether it did. */
  retireExpiryNotice(notice: DueNotice, now: Date): Promise<boolean>;
}

/** What one run did. */
export interface ExpiryNoticeRun {
  /**
   * Notices it found due. Those it neither sent nor retired it skipped: an overlapping run had sent
   * them, or the token changed after the read (revoked, say, or its index entry no longer the one read).
   */
  readonly due: number;
  /** The events it sent. */
  readonly sent: readonly AuditEvent[];
  /** Index entries it retired: of tokens that expired or were replaced before their notice. */
  readonly retired: number;
}

/** Sends the notice due for one token, or retires its entry when none can come; answers the event sent. */
const handleNotice = async (
  notices: ExpiryNoticeStore,
  notice: DueNotice,
  now: Date,
): Promise<AuditEvent | 'retired' | undefined> => {
  const due = noticeDueAt(notice.expiresAt, now);
  if (due === null) {
    // Expired before a run reached it; one not yet due is not read (the query stops at now).
    return (await notices.retireExpiryNotice(notice, now)) ? 'retired' : undefined;
  }
  const event = auditEvent(
    'token.expiring',
    systemOrigin,
    now,
    { tokenId: notice.tokenId, userId: notice.userId },
    { name: notice.name, expiresAt: notice.expiresAt, daysLeft: due.daysLeft },
  );
  if (await notices.sendExpiryNotice(notice, due.daysLeft, due.nextDueAt, event, now)) return event;
  // Sent already by an overlapping run, or the token is gone, replaced or expired meanwhile.
  return (await notices.retireExpiryNotice(notice, now)) ? 'retired' : undefined;
};

/**
 * One run of the hourly job: every expiry notice due by `now` is sent once, as a `token.expiring`
 * event in the token owner's trail (and so on the event bus). It reads the notice index for the 7
 * days before today and today, so a late or missed run still sends what fell due meanwhile; each
 * notice is a conditional write, so a retried or overlapping run sends nothing twice. A token that
 * expired, was revoked or replaced gets none.
 */
export const sendExpiryNotices = async (notices: ExpiryNoticeStore, now: Date): Promise<ExpiryNoticeRun> => {
  const due = (await Promise.all(noticeDays(now).map((day) => notices.listDueNotices(day, now)))).flat();
  const sent: AuditEvent[] = [];
  let retired = 0;
  // One at a time: a run's notices are few, and DynamoDB's capacity is left to the API.
  for (const notice of due) {
    const outcome = await handleNotice(notices, notice, now);
    if (outcome === 'retired') retired += 1;
    else if (outcome) sent.push(outcome);
  }
  return { due: due.length, sent, retired };
};
