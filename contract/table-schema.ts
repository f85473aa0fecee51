/** The single table's key schema, declared once for the stack and the local bootstrap. */
export const tableSchema = {
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [
    /** The list index: a user's tokens, projects and shares, a project's audit trail. Lists return whole items. */
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL' },
    /**
     * The notice index, sparse: a token while an expiry notice is still to come for it, under the day
     * that notice is due. It holds only attributes fixed when the token is created, so the authorizer's
     * updates of a token (its last use, its denial marks) never rewrite its entry.
     */
    {
      indexName: 'GSI2',
      partitionKey: 'GSI2PK',
      sortKey: 'GSI2SK',
      projection: ['tokenId', 'userId', 'name', 'expiresAt'],
    },
  ],
  /** Epoch seconds after which DynamoDB may delete the item. */
  timeToLiveAttribute: 'ttl',
  /** The table's stream carries each new item whole: the audit events flow from it to the event bus. */
  streamViewType: 'NEW_IMAGE',
} as const;

/** One global secondary index of the table. */
export type IndexSchema = (typeof tableSchema.globalSecondaryIndexes)[number];

/** Name of one global secondary index. */
export type IndexName = IndexSchema['indexName'];

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
  /** The secrets of one environment of a project: each one's head (its current version) and its versions. */
  secrets: 'SECRETS#',
  /** A share, addressed by its id: a ciphertext the service cannot read, and its limits. */
  share: 'SHARE#',
  /** A user's audit trail: what they did and what happened to their tokens, newest last by time. */
  audit: 'AUDIT#',
  /** In the notice index, the tokens whose next expiry notice is due on one day (UTC). */
  notice: 'NOTICE#',
  /**
   * A service account addressed by its id alone, as a sign-in names it: its trust rules and its
   * project (the service account itself is in its project's partition).
   */
  serviceAccount: 'SA#',
} as const;

/**
 * Sort-key prefix of a secret's head in its environment's secrets partition. Declared here because the
 * stack filters the table's stream on it (the TTL removal of a deleted secret's head); the key builders
 * (lambdas/data/keys.ts) build every head key from it.
 */
export const SECRET_HEAD_SORT_KEY_PREFIX = 'SECRET#';

/**
 * Who a stream record names (`userIdentity`) as the remover of an item DynamoDB's TTL deleted; a delete
 * by any caller carries no `userIdentity` at all.
 */
export const TTL_REMOVER = { type: 'Service', principalId: 'dynamodb.amazonaws.com' } as const;

/** One kind of partition. */
export type KeyPrefix = (typeof keyPrefix)[keyof typeof keyPrefix];

/** Name of the index that serves the list access patterns. */
export const listIndexName = tableSchema.globalSecondaryIndexes[0].indexName;

/** Name of the index the expiry notices are found through. */
export const noticeIndexName = tableSchema.globalSecondaryIndexes[1].indexName;

/**
 * Whether an index holds every attribute of its items: then any change of an item rewrites its entry,
 * while an index of some attributes is rewritten only when one of those (or its keys) changes.
 */
export const projectsAll = (index: IndexSchema): boolean => index.projection === 'ALL';
