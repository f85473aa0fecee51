import type { components } from '@client/index';

/** A change request as the API answers it, never with its values. */
export type ChangeRequest = components['schemas']['ChangeRequest'];

/** What a change request does to one secret. */
export type ProposedChange = ChangeRequest['changes'][number];

const versionWords = (version: number): string => (version === 0 ? 'none' : `version ${version}`);

/**
 * One change of a request as its diff reads: the secret, the action, and the version it was proposed
 * on → what it becomes (`DATABASE_URL: set, version 3 → new value`).
 */
export const changeText = (change: ProposedChange): string => {
  const from = versionWords(change.fromVersion);
  switch (change.action) {
    case 'set':
      return `${change.name}: set, ${from} → new value`;
    case 'delete':
      return `${change.name}: delete, ${from} → deleted`;
    case 'restore':
      return `${change.name}: restore version ${change.restoreVersion}, ${from} → restored`;
  }
};

/** A count with its noun, the noun in the plural but for one (`1 approval`, `2 approvals`). */
export const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

const personOf = (person: { userId: string; email: string | null } | null): string =>
  person === null ? 'someone' : (person.email ?? person.userId);

/**
 * Where a request stands, in words: an open one with its approvals so far of those it needs, a closed
 * one with who closed it (and the owner's reason when they applied it without approval).
 */
export const statusText = (request: ChangeRequest): string => {
  switch (request.status) {
    case 'open':
      return `open: ${request.approvals.length} of ${counted(request.approvalsNeeded, 'approval')}`;
    case 'expired':
      return 'expired: not approved within its 14 days';
    case 'applied':
      return request.forcedReason === null
        ? `applied, approved by ${request.approvals.map(personOf).join(', ')}`
        : `applied without approval by ${personOf(request.closedBy)}: “${request.forcedReason}”`;
    case 'conflicted':
      return 'out of date: a secret it changes moved since; nothing was written';
    case 'rejected':
    case 'cancelled':
      return `${request.status} by ${personOf(request.closedBy)}`;
  }
};

/** Open requests first, then the closed ones; each group newest first (the API's order). */
export const openFirst = (requests: readonly ChangeRequest[]): ChangeRequest[] => [
  ...requests.filter((request) => request.status === 'open'),
  ...requests.filter((request) => request.status !== 'open'),
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

/** How long ago `at` was, at `now`, in the largest whole unit (`5 minutes ago`, `yesterday`, `now`). */
export const ageText = (at: string, now: Date): string => {
  const elapsed = now.getTime() - Date.parse(at);
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return relative.format(-Math.floor(elapsed / size), unit);
  }
  return relative.format(0, 'second');
};
