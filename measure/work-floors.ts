/**
 * The least DynamoDB work each request can do: per route and for the authorizer, the calls and the
 * capacity its access pattern (docs/data-model.md) needs, derived from what the pattern must read and
 * write, not from what the code happens to do. `measure/work.ts` measures the service against these, and
 * `test/integration/work-per-request.test.ts` fails when a request spends more.
 *
 * Capacity follows DynamoDB's rules for items of at most 1 KB and query results of at most 4 KB (true
 * of every item this service stores at realistic sizes but a secret's; a token is about 500 bytes, so a
 * user's token list passes 4 KB at about eight tokens and then costs half a unit more per 4 KB). A
 * secret's head and each of its versions hold its value encrypted (its bytes and 29 more), about 400
 * bytes with a value of 40 bytes: the floors are those of values up to about 500 bytes, which the
 * samples use (`SAMPLE_SECRET`). A larger value costs more, by DynamoDB's rules, not by the code: one
 * more write unit per KB of each head and version written (doubled in a transaction) and, past 4 KB,
 * one more read unit per 4 KB of each item read.
 * The rules:
 * - a read: 1 read unit strongly consistent, 0.5 eventually consistent; a Query is one read of the
 *   items it returns;
 * - a single write: 1 write unit, plus 1 for each index whose entry it writes: a Put or a Delete writes
 *   the item's entry in every index that holds it (a token that expires is in the list index and the
 *   notice index, a membership in the list index); an Update rewrites the entries of the indexes that
 *   project ALL (the list index), not those of an index of some attributes, which hold only what a
 *   token is created with (the notice index; only the expiry-notice job, no route, moves its keys);
 * - TransactWriteItems: DynamoDB writes every item twice (prepare and commit), a ConditionCheck
 *   included: 2 units per action, and its index writes doubled likewise (as DynamoDB Local reports them;
 *   an upper bound).
 */
import { routes } from '@contract/routes';
import { indexesOf } from '@contract/table-access';
import { projectsAll } from '@contract/table-schema';
import type { Entity, FloorCall } from '@contract/work';

/** What one request may at most do to the table. */
export interface WorkFloor {
  /** A route's handler name (its contract carries its floor) or an authorizer case. */
  readonly subject: string;
  readonly calls: readonly FloorCall[];
}

/** The authorizer's cases: the credential, and whether this request is due to record a use. */
export type AuthorizerCase =
  | 'authorizer/token'
  | 'authorizer/token-record-use'
  | 'authorizer/token-record-denial'
  | 'authorizer/session'
  | 'authorizer/session-record-profile'
  | 'authorizer/malformed';

const tokenRead: FloorCall = { operation: 'GetItem', entity: 'Token', consistent: true };
/** A session's user profile (its offboarding mark decides access) and the claim on its address, in one call. */
const sessionRead: FloorCall = { operation: 'BatchGetItem', entities: ['Profile', 'EmailClaim'], consistent: true };

/** Every floor: the authorizer's cases, then each route's, from its contract. */
export const workFloors: readonly WorkFloor[] = [
  // authorize an API token: The token by primary key, strongly consistent so a revoked token fails
  // on its next use; one item of at most 4 KB.
  { subject: 'authorizer/token', calls: [tokenRead] },
  // authorize an API token + record `lastUsedAt`: At most once a minute per token: one conditional
  // UpdateItem. The token list shows `lastUsedAt` from the list index, so the write also rewrites
  // the token’s index entry (2 units).
  { subject: 'authorizer/token-record-use', calls: [tokenRead, { operation: 'UpdateItem', entity: 'Token' }] },
  // refuse a genuine API token + record `token.denied`: At most once a minute per token and reason:
  // the token’s mark for the reason (which rewrites its index entry) and the event, one transaction
  // whose condition is the mark’s age.
  {
    subject: 'authorizer/token-record-denial',
    calls: [
      tokenRead,
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Update', entity: 'Token' },
          { action: 'Put', entity: 'AuditEvent' },
        ],
      },
    ],
  },
  // admit a session: Every session request reads its user's profile, whose offboarding mark refuses a
  // session issued before it on every route, and the claim on its address, strongly consistent (an
  // offboarding counts from its next request on, in every container), in one BatchGetItem.
  { subject: 'authorizer/session', calls: [sessionRead] },
  // admit a session + record it: At most once a day per user, or when the profile or the claim no
  // longer says what the session presents: the profile (keyed by the user id, for display) and the
  // address’s claim (which finds the user when added by e-mail) together, neither in an index, each
  // conditioned on the session’s issue time. A changed address also deletes the old claim (one more
  // action, only then).
  {
    subject: 'authorizer/session-record-profile',
    calls: [
      sessionRead,
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Update', entity: 'Profile' },
          { action: 'Put', entity: 'EmailClaim' },
        ],
      },
    ],
  },
  // (none): Header, scheme, prefix, length, alphabet and checksum are judged without the table.
  { subject: 'authorizer/malformed', calls: [] },
  ...routes.map((route) => ({
    subject: route.handler,
    calls: route.dataAccess.filter((call) => !call.beyondFloor),
  })),
];

/** The floor for a subject; throws for an unknown one, so a new route without a floor fails the test. */
export const floorFor = (subject: string): WorkFloor => {
  const floor = workFloors.find((candidate) => candidate.subject === subject);
  if (!floor) throw new Error(`no work floor for ${subject}: add one to measure/work-floors.ts`);
  return floor;
};

/** Read and write units of one call of a floor, by the rules at the top of this file. */
export const floorCallUnits = (call: FloorCall): { read: number; write: number } => {
  /** Index entries a write of `entity` writes, by the rule at the top of this file. */
  const indexed = (action: 'Put' | 'Update' | 'Delete', entity: Entity) =>
    indexesOf(entity).filter((index) => action !== 'Update' || projectsAll(index)).length;
  switch (call.operation) {
    case 'GetItem':
    case 'Query': {
      const units = 'pageBytes' in call && call.pageBytes ? Math.ceil(call.pageBytes / 4096) : 1;
      return { read: units * (call.consistent ? 1 : 0.5), write: 0 };
    }
    case 'BatchGetItem':
      return { read: call.entities.length * (call.consistent ? 1 : 0.5), write: 0 };
    case 'PutItem':
      return { read: 0, write: 1 + indexed('Put', call.entity) };
    case 'UpdateItem':
      return { read: 0, write: 1 + indexed('Update', call.entity) };
    case 'DeleteItem':
      return { read: 0, write: 1 + indexed('Delete', call.entity) };
    case 'TransactWriteItems':
      return {
        read: 0,
        write: call.actions.reduce(
          (sum, { action, entity }) => sum + 2 * (1 + (action === 'ConditionCheck' ? 0 : indexed(action, entity))),
          0,
        ),
      };
  }
};

/** A floor's totals: calls, read units, write units. */
export const floorTotals = (floor: WorkFloor): { calls: number; read: number; write: number } =>
  floor.calls.reduce(
    (sum, call) => {
      const units = floorCallUnits(call);
      return { calls: sum.calls + 1, read: sum.read + units.read, write: sum.write + units.write };
    },
    { calls: 0, read: 0, write: 0 },
  );

const describeCall = (call: FloorCall): string => {
  if (call.operation === 'TransactWriteItems') {
    return `TransactWriteItems(${call.actions.map(({ action, entity }) => `${action} ${entity}`).join(' + ')})`;
  }
  if (call.operation === 'BatchGetItem') {
    return `BatchGetItem ${call.entities.join(' + ')}, ${call.consistent ? 'consistent' : 'eventual'}`;
  }
  if (call.operation === 'GetItem' || call.operation === 'Query') {
    return `${call.operation} ${call.entity}${call.index ? ` on ${call.index}` : ''}, ${call.consistent ? 'consistent' : 'eventual'}`;
  }
  return `${call.operation} ${call.entity}`;
};

const AUTHORIZER_LABELS: Readonly<Record<string, string>> = {
  'authorizer/token': 'authorizer, API token',
  'authorizer/token-record-use': 'authorizer, API token, first use in a minute',
  'authorizer/token-record-denial': 'authorizer, genuine API token refused, first in a minute for its reason',
  'authorizer/session': 'authorizer, session',
  'authorizer/session-record-profile': 'authorizer, session, first in a day',
  'authorizer/malformed': 'authorizer, malformed credential',
};

const labelOf = (subject: string): string => {
  const route = routes.find((candidate) => candidate.handler === subject);
  return route ? `\`${route.method} ${route.path.replace('/api/v1', '')}\`` : (AUTHORIZER_LABELS[subject] ?? subject);
};

/** The floors as a Markdown table: `npx tsx measure/work-floors.ts` prints it. */
export const floorsMarkdown = (): string => {
  const rows = workFloors.map((floor) => {
    const totals = floorTotals(floor);
    const calls = floor.calls.length ? floor.calls.map(describeCall).join('; ') : 'none';
    return `| ${labelOf(floor.subject)} | ${calls} | ${totals.calls} | ${totals.read} | ${totals.write} |`;
  });
  return ['| request | least DynamoDB work | calls | RRU | WRU |', '| --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
};

if (require.main === module) console.log(floorsMarkdown());
