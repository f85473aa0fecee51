/**
 * "Did you mean …?": the one place the command judges how near a mistyped name is to a real one.
 * Optimal string alignment distance (Levenshtein with a swap of two neighbours as one edit), ignoring
 * case, so `stagign` finds `staging` and `api_key` finds `API_KEY`.
 */

const distance = (a: string, b: string): number => {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
};

/**
 * The candidate nearest to `name`, when one is near enough to be what was meant: at most one edit for
 * a name of up to 5 characters, two up to 8, three beyond. Ties go to the first in alphabetical order.
 */
export const nearestName = (name: string, candidates: readonly string[]): string | undefined => {
  const wanted = name.toLowerCase();
  const allowed = name.length <= 5 ? 1 : name.length <= 8 ? 2 : 3;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of [...new Set(candidates)].sort()) {
    if (candidate === name) continue;
    const edits = distance(wanted, candidate.toLowerCase());
    if (edits <= allowed && (best === undefined || edits < best.distance)) best = { name: candidate, distance: edits };
  }
  return best?.name;
};
