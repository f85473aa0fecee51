/**
 * The least DynamoDB work a request needs, as its access pattern declares it (docs/data-model.md):
 * each route's contract carries its own, and `npm run bench` and the integration suite hold the
 * service to them.
 */

/** The kinds of item in the table (docs/data-model.md). */
export type Entity = 'Token' | 'TokenSlots' | 'Profile' | 'EmailClaim' | 'Project' | 'Member';

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
