import { type IndexSchema, tableSchema } from './table-schema';

const keySchema = (partitionKey: string, sortKey: string) => [
  { AttributeName: partitionKey, KeyType: 'HASH' as const },
  { AttributeName: sortKey, KeyType: 'RANGE' as const },
];

/** An index's projection in CreateTable's form. */
const projectionOf = (index: IndexSchema) =>
  index.projection === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection] };

/** One index in the form CreateTable's `GlobalSecondaryIndexes` and UpdateTable's `Create` share. */
export const indexKeys = (index: IndexSchema) => ({
  IndexName: index.indexName,
  KeySchema: keySchema(index.partitionKey, index.sortKey),
  Projection: projectionOf(index),
});

/**
 * The keys and indexes in the form DynamoDB's CreateTable and CloudFormation's table share: the local
 * bootstrap creates its table with them, and the stack test expects the deployed table to have them
 * (CloudFormation has no `StreamEnabled`: there the view type alone turns the stream on).
 */
export const tableKeys = {
  KeySchema: keySchema(tableSchema.partitionKey, tableSchema.sortKey),
  GlobalSecondaryIndexes: tableSchema.globalSecondaryIndexes.map(indexKeys),
  StreamSpecification: { StreamEnabled: true, StreamViewType: tableSchema.streamViewType },
};
