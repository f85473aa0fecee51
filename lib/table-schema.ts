/** The single table's key schema, declared once for the stack and the local bootstrap. */
export const tableSchema = {
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [{ indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' }],
  /** Epoch seconds after which DynamoDB may delete the item. */
  timeToLiveAttribute: 'ttl',
} as const;

/** Name of the index that serves the list access patterns. */
export const listIndexName = tableSchema.globalSecondaryIndexes[0].indexName;
