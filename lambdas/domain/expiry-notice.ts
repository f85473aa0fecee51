/**
 * When a token's owner hears that it is about to expire: one `token.expiring` event at each threshold
 * of days left, 7 and then 1. A threshold longer than the token's whole lifetime gives no notice (a
 * 3-day token gets only the 1-day one; a 7-day token gets both, the first at once).
 */

import { EXPIRY_NOTICE_DAYS } from '@contract/limits';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Days of due notices a run reads back, today included. A notice due more than 7 days ago belongs to
 * a token that has expired (none is due earlier than 7 days before its expiry), so a run after any
 * outage still finds every notice that can be sent.
 */
const LOOK_BACK_DAYS = 7;

const dueAt = (expiresAt: string, days: number): string =>
  new Date(Date.parse(expiresAt) - days * DAY_MS).toISOString();

/**
 * When the first notice of a token is due: at the largest threshold its lifetime reaches (null: a
 * token that never expires, or lives less than a day, gets none).
 */
export const firstNoticeDue = (createdAt: string, expiresAt: string | null): string | null => {
  if (expiresAt === null) return null;
  const lifetime = Date.parse(expiresAt) - Date.parse(createdAt);
  const days = EXPIRY_NOTICE_DAYS.find((threshold) => threshold * DAY_MS <= lifetime);
  return days === undefined ? null : dueAt(expiresAt, days);
};

/** The notice to send for a token whose next notice is due, and when the one after it is due. */
export interface NoticeDue {
  /** The threshold crossed: at most this many days are left. */
  readonly daysLeft: (typeof EXPIRY_NOTICE_DAYS)[number];
  /** When the next notice is due, or null after the last one. */
  readonly nextDueAt: string | null;
}

/**
 * The notice a token is due at `now`: the smallest threshold crossed, so a run late enough to have
 * crossed two sends only the nearer one (no "7 days left" with hours left). Null when none is due:
 * none crossed yet, or the token has expired.
 */
export const noticeDueAt = (expiresAt: string, now: Date): NoticeDue | null => {
  const left = Date.parse(expiresAt) - now.getTime();
  if (left <= 0) return null;
  const crossed = EXPIRY_NOTICE_DAYS.filter((threshold) => left <= threshold * DAY_MS);
  const daysLeft = crossed[crossed.length - 1];
  if (daysLeft === undefined) return null;
  const next = EXPIRY_NOTICE_DAYS.find((threshold) => threshold < daysLeft);
  return { daysLeft, nextDueAt: next === undefined ? null : dueAt(expiresAt, next) };
};

/** The days (UTC, `YYYY-MM-DD`) whose due notices a run at `now` reads, oldest first. */
export const noticeDays = (now: Date): string[] =>
  Array.from({ length: LOOK_BACK_DAYS + 1 }, (_, index) =>
    new Date(now.getTime() - (LOOK_BACK_DAYS - index) * DAY_MS).toISOString().slice(0, 10),
  );
