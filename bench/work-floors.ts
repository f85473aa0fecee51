/**
 * The least DynamoDB work each request can do: per route and for the authorizer, the calls and the
 * capacity its access pattern (docs/data-model.md) needs, derived from what the pattern must read and
 * write, not from what the code happens to do. `bench/work.ts` measures the service against these, and
 * `test/integration/work-per-request.test.ts` fails when a request spends more.
 *
 * Capacity follows DynamoDB's rules for items of at most 1 KB and query results of at most 4 KB (true
 * of every item this service stores at realistic sizes; a token is about 500 bytes, so a user's token
 * list passes 4 KB at about eight tokens and then costs half a unit more per 4 KB):
 * - a read: 1 read unit strongly consistent, 0.5 eventually consistent; a Query is one read of the
 *   items it returns;
 * - a single write: 1 write unit, plus 1 for each index that holds the item (GSI1 projects ALL, so every
 *   write to a token or a membership rewrites its index entry too);
 * - TransactWriteItems: DynamoDB writes every item twice (prepare and commit), a ConditionCheck
 *   included: 2 units per action, and its index writes doubled likewise (as DynamoDB Local reports them;
 *   an upper bound).
 */
import { routes } from '@contract/routes';

/** The kinds of item in the table (docs/data-model.md). */
export type Entity = 'Token' | 'TokenSlots' | 'Profile' | 'EmailClaim' | 'Project' | 'Member';

/** Entities whose items are in the list index (GSI1, projection ALL): their lists are read from it. */
export const inListIndex: Readonly<Record<Entity, boolean>> = {
  Token: true,
  TokenSlots: false,
  Profile: false,
  EmailClaim: false,
  Project: false,
  Member: true,
};

/** One DynamoDB call a pattern needs. */
export type FloorCall =
  | {
      readonly operation: 'GetItem' | 'Query';
      readonly entity: Entity;
      /** Whether the read must be strongly consistent (it decides access or guards a write). */
      readonly consistent: boolean;
      readonly index?: 'GSI1';
    }
  | {
      readonly operation: 'BatchGetItem';
      readonly entity: Entity;
      readonly consistent: false;
      /** Items it reads: each is one eventual read (BatchGetItem charges per item). */
      readonly items: number;
    }
  | { readonly operation: 'PutItem' | 'UpdateItem' | 'DeleteItem'; readonly entity: Entity }
  | {
      readonly operation: 'TransactWriteItems';
      readonly actions: readonly {
        readonly action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
        readonly entity: Entity;
      }[];
    };

/** What one request may at most do to the table. */
export interface WorkFloor {
  /** A route's handler name (`lib/routes.ts`) or an authorizer case. */
  readonly subject: string;
  /** The access pattern(s) of docs/data-model.md it follows. */
  readonly pattern: string;
  readonly calls: readonly FloorCall[];
  /** Why each call is needed, and what cannot be cheaper. */
  readonly why: string;
}

/** The authorizer's cases: the credential, and whether this request is due to record a use. */
export type AuthorizerCase =
  | 'authorizer/token'
  | 'authorizer/token-record-use'
  | 'authorizer/session'
  | 'authorizer/session-record-profile'
  | 'authorizer/malformed';

const tokenRead: FloorCall = { operation: 'GetItem', entity: 'Token', consistent: true };
const profileRead: FloorCall = { operation: 'GetItem', entity: 'Profile', consistent: false };
const callerMembership: FloorCall = { operation: 'GetItem', entity: 'Member', consistent: true };

/** Every floor: the authorizer's cases, then one per route of `lib/routes.ts`. */
export const workFloors: readonly WorkFloor[] = [
  {
    subject: 'authorizer/token',
    pattern: 'authorize an API token',
    calls: [tokenRead],
    why: 'The token by primary key, strongly consistent so a revoked token fails on its next use; one item of at most 4 KB.',
  },
  {
    subject: 'authorizer/token-record-use',
    pattern: 'authorize an API token + record `lastUsedAt`',
    calls: [tokenRead, { operation: 'UpdateItem', entity: 'Token' }],
    why: 'At most once a minute per token: one conditional UpdateItem. The token list shows `lastUsedAt` from the list index, so the write also rewrites the token’s index entry (2 units).',
  },
  {
    subject: 'authorizer/session',
    pattern: 'record a session’s profile (remembered)',
    calls: [],
    why: 'A warm container remembers the profiles it saw recorded today, so a session’s steady state needs no call; a cold container reads the profile once (eventually consistent: a stale read only costs an early refresh).',
  },
  {
    subject: 'authorizer/session-record-profile',
    pattern: 'record a session’s profile',
    calls: [
      profileRead,
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Put', entity: 'Profile' },
          { action: 'Put', entity: 'EmailClaim' },
        ],
      },
    ],
    why: 'At most once a day per user, or when the address changes: the profile (keyed by the user id, for display) and the address’s claim (which finds the user when added by e-mail) together, neither in an index. A changed address first releases the old claim (one more DeleteItem, only then).',
  },
  {
    subject: 'authorizer/malformed',
    pattern: '(none)',
    calls: [],
    why: 'Header, scheme, prefix, length, alphabet and checksum are judged without the table.',
  },
  {
    subject: 'create-token',
    pattern: 'create a token under the limit',
    calls: [
      { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Put', entity: 'Token' },
          { action: 'Update', entity: 'TokenSlots' },
        ],
      },
    ],
    why: 'The slots say which tokens are still live (expired ones free their slot), so they must be read; the version check makes a stale read safe, but it would cancel a 6-unit transaction and retry, so the read is strong (0.5 units more on a rare route). Token and slots in one transaction; the slots are updated (put for a user’s first token).',
  },
  {
    subject: 'list-tokens',
    pattern: 'list a user’s tokens',
    calls: [{ operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' }],
    why: 'One page of the user’s partition of the list index (an index read is eventually consistent).',
  },
  {
    subject: 'revoke-token',
    pattern: 'revoke a token',
    calls: [
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Delete', entity: 'Token' },
          { action: 'Update', entity: 'TokenSlots' },
        ],
      },
    ],
    why: 'The owner check is the Delete’s condition, so no read; the slot is freed in the same transaction.',
  },
  {
    subject: 'create-project',
    pattern: 'create a project',
    calls: [
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'Put', entity: 'Project' },
          { action: 'Put', entity: 'Member' },
        ],
      },
    ],
    why: 'Project and owner membership together, so no project is ever without its owner.',
  },
  {
    subject: 'list-projects',
    pattern: 'list a user’s projects',
    calls: [{ operation: 'Query', entity: 'Member', consistent: false, index: 'GSI1' }],
    why: 'One page of the user’s partition of the list index; each membership carries the project’s name.',
  },
  {
    subject: 'list-members',
    pattern: 'list members (decides access)',
    calls: [
      { operation: 'Query', entity: 'Member', consistent: true },
      { operation: 'BatchGetItem', entity: 'Profile', consistent: false, items: 3 },
    ],
    why: 'The project’s partition, strongly consistent because the caller’s own membership in it decides access; then each member’s profile, whose address follows their latest session (eventual: display only). The measured project has three members.',
  },
  {
    subject: 'add-member',
    pattern: 'add a member',
    calls: [
      callerMembership,
      { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'ConditionCheck', entity: 'Member' },
          { action: 'Put', entity: 'Member' },
        ],
      },
    ],
    why: 'The caller’s membership (role, and the project name the new membership carries) and the address’s claim, which names the user (strong: a user who has just signed in must be found), then the role re-checked and the member put if absent, atomically.',
  },
  {
    subject: 'remove-member',
    pattern: 'remove a member',
    calls: [
      { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
      {
        operation: 'TransactWriteItems',
        actions: [
          { action: 'ConditionCheck', entity: 'Member' },
          { action: 'Delete', entity: 'Member' },
        ],
      },
    ],
    why: 'The address’s claim names the member (strong: the member is keyed by user id); then the caller’s role checked and the member deleted unless owner, atomically. The caller’s and the member’s items are read only to explain a refusal (404, 403 or 409).',
  },
];

/** The floor for a subject; throws for an unknown one, so a new route without a floor fails the test. */
export const floorFor = (subject: string): WorkFloor => {
  const floor = workFloors.find((candidate) => candidate.subject === subject);
  if (!floor) throw new Error(`no work floor for ${subject}: add one to bench/work-floors.ts`);
  return floor;
};

/** Read and write units of one call of a floor, by the rules at the top of this file. */
export const floorCallUnits = (call: FloorCall): { read: number; write: number } => {
  const indexed = (entity: Entity) => (inListIndex[entity] ? 1 : 0);
  switch (call.operation) {
    case 'GetItem':
    case 'Query':
      return { read: call.consistent ? 1 : 0.5, write: 0 };
    case 'BatchGetItem':
      return { read: call.items * 0.5, write: 0 };
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return { read: 0, write: 1 + indexed(call.entity) };
    case 'TransactWriteItems':
      return {
        read: 0,
        write: call.actions.reduce(
          (sum, { action, entity }) => sum + 2 * (1 + (action === 'ConditionCheck' ? 0 : indexed(entity))),
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
  if (call.operation === 'BatchGetItem') return `BatchGetItem ${call.items} × ${call.entity}, eventual`;
  if (call.operation === 'GetItem' || call.operation === 'Query') {
    return `${call.operation} ${call.entity}${call.index ? ` on ${call.index}` : ''}, ${call.consistent ? 'consistent' : 'eventual'}`;
  }
  return `${call.operation} ${call.entity}`;
};

const AUTHORIZER_LABELS: Readonly<Record<string, string>> = {
  'authorizer/token': 'authorizer, API token',
  'authorizer/token-record-use': 'authorizer, API token, first use in a minute',
  'authorizer/session': 'authorizer, session',
  'authorizer/session-record-profile': 'authorizer, session, first in a day',
  'authorizer/malformed': 'authorizer, malformed credential',
};

const labelOf = (subject: string): string => {
  const route = routes.find((candidate) => candidate.handler === subject);
  return route ? `\`${route.method} ${route.path.replace('/api/v1', '')}\`` : (AUTHORIZER_LABELS[subject] ?? subject);
};

/** The floors as the Markdown table of docs/data-model.md (a test keeps the two in step). */
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
