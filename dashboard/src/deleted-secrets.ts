import { DELETED_SECRET_DAYS } from '@contract/limits';
import type { TabStorage } from './return-place';

/** A secret deleted within `DELETED_SECRET_DAYS`: its history stays readable and Restore brings it back. */
export interface DeletedSecret {
  readonly name: string;
  readonly deletedAt: string;
  /** Who deleted it, when known. */
  readonly deletedBy: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest delete that can still be restored, as the trail's `since` takes it. */
export const restorableSince = (now: number): string => new Date(now - DELETED_SECRET_DAYS * DAY_MS).toISOString();

const keyOf = (projectId: string, environment: string) => `deleted:${projectId}:${environment}`;

/**
 * The deletes made in this tab, by environment: names and times only, never a value. They list what
 * the project's trail cannot (it is read by owners and admins only).
 */
export const keptDeletes = (storage: TabStorage, projectId: string, environment: string): DeletedSecret[] => {
  try {
    const kept: unknown = JSON.parse(storage.getItem(keyOf(projectId, environment)) ?? '[]');
    return Array.isArray(kept) ? (kept as DeletedSecret[]) : [];
  } catch {
    // Not written by this dashboard: nothing kept.
    return [];
  }
};

/** Notes a delete made in this tab. */
export const keepDelete = (storage: TabStorage, projectId: string, environment: string, deleted: DeletedSecret) =>
  storage.setItem(
    keyOf(projectId, environment),
    JSON.stringify([...keptDeletes(storage, projectId, environment), deleted]),
  );

/**
 * The secrets to list as deleted: each name once, at its latest delete, but those live again (restored
 * or written since) and those deleted too long ago to restore; the latest delete first.
 */
export const deletedSecrets = (
  deletes: readonly DeletedSecret[],
  live: ReadonlySet<string>,
  now: number,
): DeletedSecret[] => {
  const since = restorableSince(now);
  const latest = new Map<string, DeletedSecret>();
  for (const entry of deletes) {
    if (live.has(entry.name) || entry.deletedAt < since) continue;
    const known = latest.get(entry.name);
    if (!known || known.deletedAt < entry.deletedAt) latest.set(entry.name, entry);
  }
  return [...latest.values()].sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
};
