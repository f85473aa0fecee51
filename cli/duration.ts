import { UsageError } from './errors';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration such as `90s`, `15m`, `24h` or `7d`; a bare number is seconds. */
export const parseDuration = (text: string, option: string): number => {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match?.[1]) throw new UsageError(`${option} takes a duration such as 90s, 15m or 24h, not "${text}"`);
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000);
};
