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
