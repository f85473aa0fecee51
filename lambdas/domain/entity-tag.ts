import { hash } from 'node:crypto';
import type { EnvironmentRecord } from './records';

/**
 * The answers about an environment's secrets that carry an entity tag: its live list, its deleted list,
 * its export (references resolved) and its export as stored (`raw`).
 */
export type SecretsView = 'list' | 'deleted' | 'export' | 'raw-export';

/**
 * The entity tag of a view of an environment's secrets: a hash of what decides its answer, so that the
 * tag changes whenever the answer can. The view (a list is not an export); the project and the
 * environment; the environment's `life` and `createdAt` (an environment deleted and made again never
 * matches the old one); its `secretsRevision`, raised in every write's transaction (0 before its
 * first); and, for the deleted list only, how many secrets it lists, since that list also changes
 * without a write, as deletes pass their 30 days: between two writes it only shrinks, so its length
 * names it. The live list and the export do not change with time (a deleted secret is never in them).
 * An export that resolves references also changes with the environments they reach: `referenced`,
 * each by its `placeKey`, named as the environment itself is (`undefined`: there is none). A hash
 * rather than the revision itself: it says nothing of the environment's writes, nor its `life` (an
 * internal id).
 */
export const secretsTag = (
  view: SecretsView,
  environment: Pick<EnvironmentRecord, 'projectId' | 'name' | 'life' | 'createdAt' | 'secretsRevision'>,
  listed?: number,
  referenced?: ReadonlyMap<string, Pick<EnvironmentRecord, 'life' | 'createdAt' | 'secretsRevision'> | undefined>,
): string => {
  const named: unknown[] = [
    view,
    environment.projectId,
    environment.name,
    environment.life ?? null,
    environment.createdAt,
    environment.secretsRevision ?? 0,
    listed ?? null,
  ];
  // Only an export whose values reach other environments names them: every other tag is as it was.
  if (referenced !== undefined && referenced.size > 0) {
    named.push(
      [...referenced]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, found]) => [key, found?.life ?? null, found?.createdAt ?? null, found?.secretsRevision ?? 0]),
    );
  }
  return `"${hash('sha256', JSON.stringify(named), 'base64url')}"`;
};

/**
 * Whether a request's `If-None-Match` holds `etag`: `*`, or a list of tags one of which is it, compared
 * weakly (RFC 9110, 13.1.2: a `W/` prefix is ignored).
 */
export const noneMatchHolds = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
};
