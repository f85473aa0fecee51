/**
 * The DynamoDB calls a route makes, as its access pattern declares them (docs/data-model.md): each
 * route's contract lists its own. The ones not marked `beyondFloor` are its least work, which
 * `npm run bench` and the integration suite hold it to; all of them together are what the stack
 * grants its function.
 */
import type { IndexName } from './table-schema';

/**
 * The kinds of item in the table (docs/data-model.md). An audit event is in its user's trail; one of a
 * project (`ProjectAuditEvent`) is in the project's trail in the list index too.
 */
export type Entity =
  | 'Token'
  | 'TokenSlots'
  | 'Profile'
  | 'EmailClaim'
  | 'Project'
  | 'Member'
  | 'Environment'
  | 'SecretHead'
  | 'SecretVersion'
  | 'ChangeRequest'
  | 'ProposedValue'
  | 'ChangeSlots'
  | 'Membership'
  | 'Share'
  | 'ShareSlots'
  | 'ServiceAccount'
  | 'TrustRules'
  | 'AuditEvent'
  | 'ProjectAuditEvent'
  | 'Webhook'
  | 'WebhookDelivery';

/** One DynamoDB call a pattern needs. */
export type FloorCall =
  | {
      readonly operation: 'GetItem' | 'Query';
      readonly entity: Entity;
      /** Whether the read must be strongly consistent (it decides access or guards a write). */
      readonly consistent: boolean;
      readonly index?: IndexName;
      /**
       * The most a page of this Query returns, in bytes, when a page may exceed one 4 KB read unit
       * (a trail's page of events); otherwise a Query is one read of the few items it returns.
       */
      readonly pageBytes?: number;
    }
  | {
      readonly operation: 'BatchGetItem';
      /** The entity of each item it reads, in order (BatchGetItem charges per item). */
      readonly entities: readonly Entity[];
      readonly consistent: boolean;
    }
  | { readonly operation: 'PutItem' | 'UpdateItem' | 'DeleteItem'; readonly entity: Entity }
  | {
      readonly operation: 'TransactWriteItems';
      readonly actions: readonly {
        readonly action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
        readonly entity: Entity;
      }[];
    };

/**
 * A call a route makes: part of its least work, unless `beyondFloor` (a call made only off the usual
 * path, such as a read that explains a refusal; a comment says when).
 */
export type DataCall = FloorCall & { readonly beyondFloor?: true };
