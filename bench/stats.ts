/** The q-quantile (0..1) of a sample, by nearest rank. */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};

/** The median of a sample. */
export const median = (values: readonly number[]): number => quantile(values, 0.5);
