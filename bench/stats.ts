/** The q-quantile (0..1) of a sample, by nearest rank. */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};

/** The median of a sample. */
export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** Each sample over the floor sample taken beside it (same round or block): the ratios of interleaved pairs. */
export const pairedRatios = (values: readonly number[], floors: readonly number[]): number[] =>
  values.map((value, index) => value / (floors[index] ?? Number.NaN)).filter(Number.isFinite);

/**
 * A distribution-free 95 % confidence interval of the median, by order statistics: the ranks
 * n/2 ± 0.98·√n. A verdict whose target lies outside it does not flip from one run to the next but
 * for a change of the machine itself.
 */
export const medianInterval = (values: readonly number[]): [number, number] => {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const half = 0.98 * Math.sqrt(n);
  const low = Math.max(0, Math.floor(n / 2 - half));
  const high = Math.min(n - 1, Math.ceil(n / 2 + half) - 1);
  return [sorted[low] ?? Number.NaN, sorted[high] ?? Number.NaN];
};

/**
 * Where the median of a sample of ratios stands against its target: its 95 % interval lies wholly below
 * it or wholly above it, `margin` or more away (clear: the verdict holds from run to run), or it is
 * still open (more samples may clear it).
 */
export type Clearance = 'below' | 'above' | 'open';

/**
 * The stopping rule of every sampled ratio: clear when the median's interval lies `margin` or more to
 * one side of the target. The margin is what a ratio moved between runs beyond its own interval
 * (docs/performance.md, "The bench's time and its sampling rule"): an interval clear by that much keeps
 * its verdict in the next run too.
 */
export const clearance = (ratios: readonly number[], target: number, margin: number): Clearance => {
  if (!Number.isFinite(target)) return 'below';
  const [low, high] = medianInterval(ratios);
  if (high <= target - margin) return 'below';
  if (low > target + margin) return 'above';
  return 'open';
};

/**
 * How to sample one ratio sequentially: `min` samples first, then `batch` more at a time while its
 * interval is open, up to `max` (where it is reported as open, its verdict the median's as before).
 */
export interface Sequential {
  readonly min: number;
  readonly batch: number;
  readonly max: number;
  readonly target: number;
  readonly margin: number;
  /**
   * From this many samples on, the interval only has to lie beyond the target, without the margin (as
   * the fixed count this rule replaced judged it); before it, and by default always, by the margin.
   */
  readonly marginUntil?: number;
}

/** Whether to take another batch, having `ratios` so far. */
export const needsMore = (ratios: readonly number[], rule: Sequential): boolean => {
  if (ratios.length < rule.min) return true;
  if (ratios.length >= rule.max) return false;
  const margin = ratios.length < (rule.marginUntil ?? rule.max) ? rule.margin : 0;
  return clearance(ratios, rule.target, margin) === 'open';
};
