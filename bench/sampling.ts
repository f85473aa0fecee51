/**
 * How many samples each ratio of the bench takes: a minimum, then a batch at a time while its median's
 * 95 % interval holds the target (within a margin), up to a maximum, where the ratio is reported as
 * open and judged by its median as before (`needsMore` in bench/stats.ts). The maximum of each is the
 * fixed count the bench took before this rule, so a ratio that never clears gets what it always had;
 * one that clears early stops early. docs/performance.md, "The bench's time and its sampling rule",
 * gives the margins' and minima's reasons.
 */
import type { Sequential } from './stats';

/**
 * A function's cold load (CPU) against its floor's, in rounds of one load each: from 31 rounds (the fixed
 * count before this rule) on, only while the interval holds the target, as that count went on then.
 */
export const COLD: Sequential = { min: 11, batch: 10, max: 91, target: 1.1, margin: 0.02, marginUntil: 31 };

/** The source-map tax as deployed, pooled over every function's rounds that loaded the unmapped bundle. */
export const SOURCE_MAP_TAX: Sequential = { min: 30, batch: 30, max: 400, target: 1.05, margin: 0.01 };

/** A function's warm CPU against its floor's, in pairs of invocations. */
export const WARM: Sequential = { min: 500, batch: 500, max: 3000, target: 1.05, margin: 0.005 };

/** Invocations of each side before the first timed pair (docs/performance.md, "Warm CPU is measured warm"). */
export const WARM_SETTLE = 2000;

/**
 * The screen before that full warm-up: after `settle` invocations of each side, `pairs` pairs; a function
 * whose interval then lies below its target by `margin` or more keeps that verdict and figure, and any
 * other goes on to `WARM_SETTLE` and the `WARM` rule. A ratio taken this early is, if anything, higher
 * than the function's warm one: its own code warms up after the libraries' (docs/performance.md, "Warm
 * CPU screened").
 */
export const WARM_SCREEN = { settle: 500, pairs: 300, margin: 0.015 } as const;

/**
 * Invocations of each side more before a miss is measured again (`WARM` from none), the measure that
 * stands: promote-secrets' path was still being optimized 3,500 pairs in (docs/performance.md, "Warm CPU
 * screened").
 */
export const WARM_CONFIRM = 2000;

/** Rounds of calls end to end: at least `minRounds`, more while the p50 ratio's interval is open, at most `maxRounds`. */
export interface Rounds {
  readonly warmup: number;
  readonly callsPerRound: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  readonly target: number;
  readonly margin: number;
}

/**
 * The authorizer end to end, its floor and a raw GetItem taking turns. Three rounds at least, since the
 * tail is the median of the rounds' p99s; a fourth and fifth while the p50's interval is open or the
 * tail is within a tenth of its own target. Warm-up: 3,000 turns, after which every side's p50 was flat
 * (docs/performance.md, "The bench on two cores").
 */
export const END_TO_END: Rounds = {
  warmup: 3000,
  callsPerRound: 1000,
  minRounds: 3,
  maxRounds: 5,
  target: 1.2,
  margin: 0.02,
};

/**
 * A warm read of one secret end to end against its floor (DynamoDB Local is warm by then; a read is two
 * calls): 1,000 warm-up pairs, since its ratio showed no trend from the first round on.
 */
export const SECRET_READ: Rounds = {
  warmup: 1000,
  callsPerRound: 500,
  minRounds: 3,
  maxRounds: 5,
  target: 1.2,
  margin: 0.02,
};

/**
 * The raw GetItem alone, when the authorizer is not measured: its p50 only prices the cost rows' I/O
 * (billed by the whole millisecond), so one round after a short warm-up.
 */
export const RAW_PRICE: Rounds = {
  warmup: 2000,
  callsPerRound: 1000,
  minRounds: 1,
  maxRounds: 1,
  target: Number.POSITIVE_INFINITY,
  margin: 0,
};
