import type { components } from './client';
import { UsageError } from './errors';
import { secretName } from './names';
import { plural, printable } from './text';

/** A change request as the API answers it, without its values. */
export type ChangeRequest = components['schemas']['ChangeRequest'];

/** One secret a change request changes. */
type Change = ChangeRequest['changes'][number];

/** How long ago `at` was, in its largest whole unit: `45s`, `12m`, `5h`, `3d`. */
export const age = (at: string, now: number): string => {
  const seconds = Math.max(0, Math.floor((now - Date.parse(at)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 60 * 60) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 48 * 60 * 60) return `${Math.floor(seconds / (60 * 60))}h`;
  return `${Math.floor(seconds / (24 * 60 * 60))}d`;
};

/** How many approvals an open request still waits for. */
export const approvalsLeft = (request: ChangeRequest): number =>
  Math.max(0, request.approvalsNeeded - request.approvals.length);

/**
 * One change by name, with the version it was proposed on: `set API_KEY (v3 → new)`, `delete OLD (at
 * v4)`, `restore X to v2 (at v5)`; a set's value, when given, JSON-quoted after it.
 */
export const changeLine = (change: Change, value?: string): string => {
  const from = change.fromVersion === 0 ? 'none' : `v${change.fromVersion}`;
  switch (change.action) {
    case 'set':
      return `set ${change.name} (${from} → new)${value === undefined ? '' : ` = ${printable(JSON.stringify(value))}`}`;
    case 'delete':
      return `delete ${change.name} (at ${from})`;
    case 'restore':
      return `restore ${change.name} to v${change.restoreVersion} (at ${from})`;
  }
};

const who = (person: { email: string | null; userId: string }) => printable(person.email ?? person.userId);

/** A note on one line of a table: its spaces and line breaks as one space, cut at `width` characters. */
const oneLine = (text: string, width: number): string => {
  const flat = text.replace(/\s+/g, ' ');
  return printable(flat.length > width ? `${flat.slice(0, width - 1)}…` : flat);
};

/** The widest a note is shown in the list. */
const NOTE_WIDTH = 60;

/** The rows of `secrets changes list`, header first. */
export const listRows = (requests: readonly ChangeRequest[], now: number): string[][] => [
  ['ID', 'STATUS', 'APPROVALS', 'AUTHOR', 'AGE', 'CHANGES', 'NOTE'],
  ...requests.map((request) => [
    request.id,
    request.status,
    `${request.approvals.length}/${request.approvalsNeeded}`,
    who(request.author),
    age(request.createdAt, now),
    String(request.changes.length),
    request.note === null ? '' : oneLine(request.note, NOTE_WIDTH),
  ]),
];

/**
 * What `secrets changes show` prints: the request's state, who proposed, approved and closed it, its
 * note, then each change by name (with its value, when `values` holds it).
 */
export const describeRequest = (
  request: ChangeRequest,
  now: number,
  values?: Readonly<Record<string, string>>,
): { heading: string; fields: string[][]; changes: string[] } => ({
  heading: `${request.id}  ${request.status}, ${request.approvals.length} of ${plural(request.approvalsNeeded, 'approval')}`,
  fields: [
    ['author', who(request.author)],
    ['created', `${request.createdAt} (${age(request.createdAt, now)} ago)`],
    ...(request.status === 'open' || request.status === 'expired' ? [['expires', request.expiresAt]] : []),
    ...(request.note === null ? [] : [['note', printable(request.note)]]),
    ...request.approvals.map((approval) => ['approved', `by ${who(approval)} at ${approval.at}`]),
    ...(request.closedBy === null || request.closedAt === null
      ? []
      : [['closed', `${request.status} by ${who(request.closedBy)} at ${request.closedAt}`]]),
    ...(request.forcedReason === null ? [] : [['forced', `without its approvals: ${printable(request.forcedReason)}`]]),
  ],
  changes: request.changes.map((change) =>
    changeLine(change, change.action === 'set' ? values?.[change.name] : undefined),
  ),
});

/** A `--restore NAME:VERSION` as the API takes it; anything else is a usage error. */
export const restoreEntry = (text: string): { name: string; version: number } => {
  const match = /^([^:]*):(\d+)$/.exec(text);
  const name = match?.[1] ?? '';
  const version = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(version) || version < 1) {
    throw new UsageError(`--restore ${JSON.stringify(text)} is not NAME:VERSION (e.g. API_KEY:2)`);
  }
  return { name: secretName(name), version };
};

/**
 * The name of `--set NAME`. A value never comes on the command line, where shell history and the
 * process list keep it: `--set NAME=value` is refused without repeating what it holds.
 */
export const setName = (text: string): string => {
  if (text.includes('=')) {
    throw new UsageError('--set takes a name alone: the value comes from standard input, never the command line');
  }
  return secretName(text);
};
