/** Source of the current time; swapped only by the local runtime and tests to move time. */
export interface Clock {
  now(): Date;
}

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

/** The clock every handler and the authorizer read. */
export const clock: Clock = { now: () => current.now() };

/** Replaces the clock (pass nothing to go back to the system clock). */
export const setClock = (next: Clock = systemClock): void => {
  current = next;
};

/** ISO 8601 UTC with milliseconds, the one timestamp format of the API. */
export const toIso = (date: Date): string => date.toISOString();
