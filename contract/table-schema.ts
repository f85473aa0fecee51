/** The single table's key schema, declared once for the stack and the local bootstrap. */
export const tableSchema = {
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [{ indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' }],
  /** Epoch seconds after which DynamoDB may delete the item. */
  timeToLiveAttribute: 'ttl',
  /** The table's stream carries each new item whole: the audit events flow from it to the event bus. */
  streamViewType: 'NEW_IMAGE',
} as const;

/**
 * The first part of every partition key, one per kind of partition: the key builders
 * (lambdas/data/keys.ts) start every key with one, and the stack limits each function's table access
 * to the prefixes it declares (`dynamodb:LeadingKeys`).
 */
export const keyPrefix = {
  /** A token, addressed by its public id. */
  token: 'TOKEN#',
  /** A user's partition (profile, token slots) and, in the list index, a user's lists. */
  user: 'USER#',
  /** A verified e-mail address and the user who holds it. */
  email: 'EMAIL#',
  /** A project and its members; in the list index, a project's audit trail. */
  project: 'PROJECT#',
  /** A user's audit trail: what they did and what happened to their tokens, newest last by time. */
  audit: 'AUDIT#',
} as const;

/** One kind of partition. */
export type KeyPrefix = (typeof keyPrefix)[keyof typeof keyPrefix];

/** Name of the index that serves the list access patterns. */
export const listIndexName = tableSchema.globalSecondaryIndexes[0].indexName;
