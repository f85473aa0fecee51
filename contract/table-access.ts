import { type IndexName, type KeyPrefix, keyPrefix, listIndexName, noticeIndexName, tableSchema } from './table-schema';
import type { DataCall, Entity } from './work';

/** A DynamoDB action one of our functions may perform. Scan is deliberately not one of them. */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query'
  | 'dynamodb:BatchWriteItem';

/** Actions a function may perform on some partitions of the table or of one of its indexes. */
export interface TableGrant {
  /** The actions (a TransactWriteItems call needs the action of each of its parts). */
  readonly actions: readonly TableAction[];
  /** The partitions they may touch, by key prefix: the grant's condition on `dynamodb:LeadingKeys`. */
  readonly partitions: readonly KeyPrefix[];
  /** On this index, whose partition keys `partitions` then name, rather than the table. */
  readonly index?: IndexName;
}

/** What one function may do to the table; the stack grants exactly this and nothing else. */
export type TableAccess = readonly TableGrant[];

/**
 * The authorizer's table access: token, profile and claim items, and audit events. It reads the token
 * (strongly consistent) and records `lastUsedAt` at most once a minute; for a session it reads the
 * user's profile (the offboarding mark) and the claim on the session's address in one strongly
 * consistent BatchGetItem, and, at most once a day or when either no longer says what the session
 * presents, updates the profile and puts the claim (deleting the claim on a previous address). When it
 * refuses a token that exists, one transaction marks the denial on the token and puts the
 * `token.denied` event in its owner's trail.
 */
export const authorizerTableAccess: TableAccess = [
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.token] },
  // A service account's token: its service account, in its project's partition.
  { actions: ['dynamodb:GetItem'], partitions: [keyPrefix.project] },
  { actions: ['dynamodb:PutItem'], partitions: [keyPrefix.audit] },
  { actions: ['dynamodb:BatchGetItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
  { actions: ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem'], partitions: [keyPrefix.email] },
];

/**
 * The offboarding function's table access (`npm run offboard` has the operator's own): it finds the
 * user by address, marks their profile and token slots, marks their address's claim offboarded, lists
 * their memberships (their own partition) and tokens (list index), removes each membership but
 * ownerships, and revokes each token, recording an audit event for each change and one for the
 * offboarding.
 */
export const offboardingTableAccess: TableAccess = [
  { actions: ['dynamodb:Query'], partitions: [keyPrefix.user], index: listIndexName },
  {
    actions: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    partitions: [keyPrefix.user],
  },
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.email] },
  { actions: ['dynamodb:DeleteItem'], partitions: [keyPrefix.token, keyPrefix.project] },
  { actions: ['dynamodb:PutItem'], partitions: [keyPrefix.audit] },
];

/**
 * The expiry-notice function's table access: it reads the notices due from the notice index, and for
 * each one marks it on the token (moving or removing the token's notice-index keys) and puts the
 * `token.expiring` event in the owner's trail, in one transaction; or takes the entry of a token that
 * expired or was replaced out of the index.
 */
export const expiryNoticeTableAccess: TableAccess = [
  { actions: ['dynamodb:Query'], partitions: [keyPrefix.notice], index: noticeIndexName },
  { actions: ['dynamodb:UpdateItem'], partitions: [keyPrefix.token] },
  { actions: ['dynamodb:PutItem'], partitions: [keyPrefix.audit] },
];

/**
 * The secret-version cleanup's table access: when DynamoDB's TTL removes a deleted secret's head, it
 * reads the head again (strongly consistent: a secret of the name written since has a new one), queries
 * the versions of every life of that name, and deletes those of lives other than the current head's,
 * in BatchWriteItem calls. Only in the environments' secrets partitions.
 */
export const secretVersionCleanupTableAccess: TableAccess = [
  { actions: ['dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:Query'], partitions: [keyPrefix.secrets] },
];

/** The partition an entity's items are in, and in each index that holds them, the partition that lists them. */
const partitions: Readonly<
  Record<Entity, { readonly table: KeyPrefix; readonly indexes?: Partial<Record<IndexName, KeyPrefix>> }>
> = {
  // A token that expires is in the notice index too, until its last notice.
  Token: { table: keyPrefix.token, indexes: { [listIndexName]: keyPrefix.user, [noticeIndexName]: keyPrefix.notice } },
  TokenSlots: { table: keyPrefix.user },
  Profile: { table: keyPrefix.user },
  EmailClaim: { table: keyPrefix.email },
  Project: { table: keyPrefix.project },
  Member: { table: keyPrefix.project },
  Environment: { table: keyPrefix.project },
  SecretHead: { table: keyPrefix.secrets },
  SecretVersion: { table: keyPrefix.secrets },
  ChangeRequest: { table: keyPrefix.secrets },
  ProposedValue: { table: keyPrefix.secrets },
  ChangeSlots: { table: keyPrefix.secrets },
  Membership: { table: keyPrefix.user },
  Share: { table: keyPrefix.share, indexes: { [listIndexName]: keyPrefix.user } },
  ShareSlots: { table: keyPrefix.user },
  ServiceAccount: { table: keyPrefix.project },
  TrustRules: { table: keyPrefix.serviceAccount },
  AuditEvent: { table: keyPrefix.audit },
  ProjectAuditEvent: { table: keyPrefix.audit, indexes: { [listIndexName]: keyPrefix.project } },
  Webhook: { table: keyPrefix.project },
  WebhookDelivery: { table: keyPrefix.project },
};

/** The indexes that hold an entity's items: there its lists are read, and a write may rewrite its entry too. */
export const indexesOf = (entity: Entity) =>
  tableSchema.globalSecondaryIndexes.filter((index) => partitions[entity].indexes?.[index.indexName] !== undefined);

const transactionActions = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
} as const satisfies Record<string, TableAction>;

/**
 * What a route's function may do to the table, derived from the calls its contract lists: each call's
 * action (each part's, for a transaction) on its entity's partition, or on an index for a query of
 * it; one grant per partition.
 */
export const grantsOf = (calls: readonly DataCall[]): TableAccess => {
  const grants = new Map<string, { actions: Set<TableAction>; partition: KeyPrefix; index?: IndexName }>();
  const grant = (action: TableAction, entity: Entity, index?: IndexName) => {
    const partition = index ? partitions[entity].indexes?.[index] : partitions[entity].table;
    if (!partition) throw new Error(`${entity} is not in ${index}`);
    const key = `${index ?? 'table'} ${partition}`;
    const entry = grants.get(key) ?? { actions: new Set<TableAction>(), partition, index };
    entry.actions.add(action);
    grants.set(key, entry);
  };
  for (const call of calls) {
    if (call.operation === 'TransactWriteItems') {
      for (const part of call.actions) grant(transactionActions[part.action], part.entity);
    } else if (call.operation === 'BatchGetItem') {
      for (const entity of call.entities) grant('dynamodb:BatchGetItem', entity);
    } else {
      grant(`dynamodb:${call.operation}`, call.entity, 'index' in call ? call.index : undefined);
    }
  }
  return [...grants.values()].map(({ actions, partition, index }) => ({
    actions: [...actions].sort(),
    partitions: [partition],
    ...(index && { index }),
  }));
};

/**
 * The DynamoDB calls of the webhook delivery function (docs/operations.md, "Webhooks"): for an audit
 * event of a project, the project's webhooks (strongly consistent, so one deleted a moment ago is not
 * delivered to); for each delivery attempt, the webhook again and the project (its data key, to open
 * the webhook's signing secret), and the attempt's record.
 */
export const webhookDeliveryCalls: readonly DataCall[] = [
  { operation: 'Query', entity: 'Webhook', consistent: true },
  { operation: 'GetItem', entity: 'Webhook', consistent: true },
  { operation: 'GetItem', entity: 'Project', consistent: true },
  { operation: 'Query', entity: 'WebhookDelivery', consistent: true },
  { operation: 'PutItem', entity: 'WebhookDelivery' },
];

/** The webhook delivery function's table access, derived from its calls. */
export const webhookDeliveryTableAccess: TableAccess = grantsOf(webhookDeliveryCalls);
