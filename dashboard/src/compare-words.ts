import type { Environment, SecretComparison } from '@client/index';
import { MAX_PATCH_CHANGES } from '@contract/limits';
import { counted } from './change-words';

/** How one secret of `from` compares with the one of its name in `to`. */
export type ComparisonStatus = SecretComparison['status'];

/** The two environments a comparison is between. */
export interface EnvironmentPair {
  readonly from: string;
  readonly to: string;
}

/**
 * The pair the Compare tab opens at: staging to production, the usual way a value travels, when both
 * exist; else the first two. None when there is nothing to compare (fewer than two environments).
 */
export const defaultPair = (environments: readonly Pick<Environment, 'name'>[]): EnvironmentPair | undefined => {
  const names = environments.map((environment) => environment.name);
  if (names.includes('staging') && names.includes('production')) return { from: 'staging', to: 'production' };
  const [from, to] = names;
  return from !== undefined && to !== undefined ? { from, to } : undefined;
};

/** A status in plain words, naming the environment where a secret stands alone (`Only in staging`). */
export const statusWords = (status: ComparisonStatus, pair: EnvironmentPair): string => {
  switch (status) {
    case 'same':
      return 'Same';
    case 'different':
      return 'Different';
    case 'only-from':
      return `Only in ${pair.from}`;
    case 'only-to':
      return `Only in ${pair.to}`;
  }
};

/** Whether a promote can copy the secret from `from` into `to`: it is live in `from` and `to` lacks its value. */
export const isPromotable = (comparison: Pick<SecretComparison, 'status'>): boolean =>
  comparison.status === 'different' || comparison.status === 'only-from';

/** Differences first, as what a person comes to act on: then what only `to` has, then the same ones. */
const STATUS_ORDER: Readonly<Record<ComparisonStatus, number>> = {
  different: 0,
  'only-from': 1,
  'only-to': 2,
  same: 3,
};

/** The comparison in the order the table shows it: by `STATUS_ORDER`, then by name. */
export const differencesFirst = <T extends Pick<SecretComparison, 'name' | 'status'>>(rows: readonly T[]): T[] =>
  [...rows].sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );

/**
 * The comparison counted, in the table's order, leaving out a status no secret has
 * (`4 secrets: 1 different, 1 only in staging, 1 only in production, 1 the same.`).
 */
export const summaryText = (rows: readonly Pick<SecretComparison, 'status'>[], pair: EnvironmentPair): string => {
  if (rows.length === 0) return `Neither ${pair.from} nor ${pair.to} has a secret.`;
  const statuses = Object.keys(STATUS_ORDER) as ComparisonStatus[];
  const parts = statuses
    .map((status) => ({ status, count: rows.filter((row) => row.status === status).length }))
    .filter(({ count }) => count > 0)
    .map(({ status, count }) => `${count} ${status === 'same' ? 'the same' : statusWords(status, pair).toLowerCase()}`);
  return `${counted(rows.length, 'secret')}: ${parts.join(', ')}.`;
};

/** A secret's version in one environment, or that it is not live there. */
export const versionText = (version: number | null): string => (version === null ? 'none' : `version ${version}`);

/** Why Promote cannot be pressed for `count` chosen secrets, or undefined when it can. */
export const choiceProblem = (count: number): string | undefined => {
  if (count === 0) return 'Choose the secrets to promote.';
  if (count > MAX_PATCH_CHANGES)
    return `A promote takes at most ${MAX_PATCH_CHANGES} secrets: ${count} are chosen. Promote them in parts.`;
  return undefined;
};

/**
 * What a promote does to one secret, as its dialog lists it: the version read from `from`, and whether
 * it goes over a version in `to` or is new there (`API_KEY: version 3 from staging, over version 2 in production`).
 */
export const promotedText = (
  comparison: Pick<SecretComparison, 'name' | 'fromVersion' | 'toVersion'>,
  pair: EnvironmentPair,
): string =>
  `${comparison.name}: ${versionText(comparison.fromVersion)} from ${pair.from}, ${
    comparison.toVersion === null ? 'new' : `over ${versionText(comparison.toVersion)}`
  } in ${pair.to}`;

/** What the status line says once a promote wrote: how many, from where to where. */
export const writtenText = (count: number, pair: EnvironmentPair): string =>
  `Promoted ${counted(count, 'secret')} from ${pair.from} to ${pair.to}.`;
