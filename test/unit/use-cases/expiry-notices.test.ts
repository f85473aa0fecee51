import type { AuditEvent } from '@contract/audit';
import { noticeDays } from '@lambdas/domain/expiry-notice';
import type { DueNotice } from '@lambdas/domain/records';
import { type ExpiryNoticeStore, sendExpiryNotices } from '@lambdas/use-cases/expiry-notices';
import { eventLike, now } from './fakes';

const HOUR_MS = 60 * 60 * 1000;

const notice = (tokenId: string, expiresInMs: number): DueNotice => ({
  tokenId,
  userId: 'u-1',
  name: `token ${tokenId}`,
  expiresAt: new Date(now.getTime() + expiresInMs).toISOString(),
  GSI2SK: `due#${tokenId}`,
});

/**
 * A notice index in memory: every notice is due on today's date; `stale` ones changed since they were
 * read, so a send is refused (as for an overlapping run or a revoked token).
 */
const fakeIndex = (due: DueNotice[], stale: readonly string[] = []) => {
  const entries = new Map(due.map((entry) => [entry.tokenId, entry]));
  const days: string[] = [];
  const sent: { tokenId: string; daysLeft: number; nextDueAt: string | null; event: AuditEvent }[] = [];
  const store: ExpiryNoticeStore = {
    listDueNotices: async (day) => {
      days.push(day);
      return day === now.toISOString().slice(0, 10) ? [...entries.values()] : [];
    },
    sendExpiryNotice: async (read, daysLeft, nextDueAt, event) => {
      if (stale.includes(read.tokenId)) return false;
      sent.push({ tokenId: read.tokenId, daysLeft, nextDueAt, event });
      return true;
    },
    retireExpiryNotice: async (read) => !stale.includes(read.tokenId) && entries.delete(read.tokenId),
  };
  return { store, days, sent, entries };
};

describe('sendExpiryNotices', () => {
  it('reads every day a late run may have missed, and today', async () => {
    const index = fakeIndex([]);
    expect(await sendExpiryNotices(index.store, now)).toEqual({ due: 0, sent: [], retired: 0 });
    expect(index.days.sort()).toEqual(noticeDays(now));
  });

  it('sends a token.expiring event into the owner’s trail for the nearest threshold crossed', async () => {
    const index = fakeIndex([notice('t-week', 5 * 24 * HOUR_MS), notice('t-day', 2 * HOUR_MS)]);
    const run = await sendExpiryNotices(index.store, now);
    expect(run).toMatchObject({ due: 2, retired: 0 });
    expect(index.sent.map(({ tokenId, daysLeft }) => [tokenId, daysLeft])).toEqual([
      ['t-week', 7],
      ['t-day', 1],
    ]);
    expect(index.sent[1]?.nextDueAt).toBeNull();
    expect(run.sent).toEqual([
      eventLike('token.expiring', {
        actor: expect.objectContaining({ via: 'system' }),
        target: expect.objectContaining({ tokenId: 't-week', userId: 'u-1' }),
        details: expect.objectContaining({ name: 'token t-week', daysLeft: 7 }),
      }),
      eventLike('token.expiring', { details: expect.objectContaining({ daysLeft: 1 }) }),
    ]);
  });

  it('retires, without an event, the entry of a token that expired before a run reached it', async () => {
    const index = fakeIndex([notice('t-gone', -HOUR_MS)]);
    expect(await sendExpiryNotices(index.store, now)).toEqual({ due: 1, sent: [], retired: 1 });
    expect(index.entries.size).toBe(0);
  });

  it('skips a notice whose token or entry changed since the read: nothing sent twice', async () => {
    const index = fakeIndex([notice('t-changed', 2 * HOUR_MS)], ['t-changed']);
    expect(await sendExpiryNotices(index.store, now)).toEqual({ due: 1, sent: [], retired: 0 });
    expect(index.entries.size).toBe(1);
  });
});
