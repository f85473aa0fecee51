import { EXPIRY_NOTICE_DAYS } from '@contract/limits';
import { firstNoticeDue, noticeDays, noticeDueAt } from '@lambdas/domain/expiry-notice';

const DAY_MS = 24 * 60 * 60 * 1000;
const CREATED = '2026-11-01T12:00:00.000Z';
const inDays = (days: number, from = CREATED): string => new Date(Date.parse(from) + days * DAY_MS).toISOString();
const at = (iso: string): Date => new Date(iso);

describe('expiry notices', () => {
  it('tells the owner at 7 days left, then at 1', () => {
    expect(EXPIRY_NOTICE_DAYS).toEqual([7, 1]);
  });

  describe('firstNoticeDue', () => {
    it('is due 7 days before expiry for a token that lives longer', () => {
      expect(firstNoticeDue(CREATED, inDays(30))).toBe(inDays(23));
    });

    it('is due at once for a token of exactly 7 days, and for one of exactly 1 day (its 1-day notice)', () => {
      expect(firstNoticeDue(CREATED, inDays(7))).toBe(CREATED);
      expect(firstNoticeDue(CREATED, inDays(1))).toBe(CREATED);
    });

    it('skips a threshold longer than the whole lifetime: a 3-day token gets only the 1-day notice', () => {
      expect(firstNoticeDue(CREATED, inDays(3))).toBe(inDays(2));
      expect(firstNoticeDue(CREATED, inDays(6.99))).toBe(inDays(5.99));
    });

    it('gives none to a token that never expires or lives less than a day', () => {
      expect(firstNoticeDue(CREATED, null)).toBeNull();
      expect(firstNoticeDue(CREATED, inDays(0.5))).toBeNull();
    });
  });

  describe('noticeDueAt', () => {
    const expiresAt = inDays(30);

    it('is the 7-day notice once 7 days or less are left, with the 1-day notice next', () => {
      expect(noticeDueAt(expiresAt, at(inDays(23)))).toEqual({ daysLeft: 7, nextDueAt: inDays(29) });
      expect(noticeDueAt(expiresAt, at(inDays(28.9)))).toEqual({ daysLeft: 7, nextDueAt: inDays(29) });
    });

    it('is the last, 1-day notice once a day or less is left', () => {
      expect(noticeDueAt(expiresAt, at(inDays(29)))).toEqual({ daysLeft: 1, nextDueAt: null });
      expect(noticeDueAt(expiresAt, at(inDays(29.99)))).toEqual({ daysLeft: 1, nextDueAt: null });
    });

    it('is only the nearer notice for a run so late that both thresholds are crossed', () => {
      expect(noticeDueAt(expiresAt, at(inDays(29.5)))?.daysLeft).toBe(1);
    });

    it('is none before the first threshold and none once the token has expired', () => {
      expect(noticeDueAt(expiresAt, at(inDays(22.99)))).toBeNull();
      expect(noticeDueAt(expiresAt, at(expiresAt))).toBeNull();
      expect(noticeDueAt(expiresAt, at(inDays(31)))).toBeNull();
    });
  });

  describe('noticeDays', () => {
    it('reads back the 7 days before today, oldest first, so no run after an outage misses a notice', () => {
      expect(noticeDays(at('2026-11-23T00:10:00.000Z'))).toEqual([
        '2026-11-16',
        '2026-11-17',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-21',
        '2026-11-22',
        '2026-11-23',
      ]);
    });
  });
});
