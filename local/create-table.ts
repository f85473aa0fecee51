import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { indexKeys, tableKeys } from '../contract/table-keys';
import { tableSchema } from '../contract/table-schema';

const stringAttribute = (AttributeName: string) => ({ AttributeName, AttributeType: 'S' as const });

/** Every key attribute of the table and its indexes: what CreateTable and an index's UpdateTable declare. */
const attributeDefinitions = [
  stringAttribute(tableSchema.partitionKey),
  stringAttribute(tableSchema.sortKey),
  ...tableSchema.globalSecondaryIndexes.flatMap((index) => [
    stringAttribute(index.partitionKey),
    stringAttribute(index.sortKey),
  ]),
];

/** Generous: DynamoDB Local builds a new index of a small table in well under a second. */
const ACTIVE_WITHIN_MS = 60_000;

const describe = async (client: DynamoDBClient, tableName: string): Promise<TableDescription> => {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (!table) throw new Error(`Table ${tableName} has no description`);
  return table;
};

/** Waits until the table and every index are ACTIVE: DynamoDB Local fails writes while an index is built. */
const waitUntilActive = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const deadline = Date.now() + ACTIVE_WITHIN_MS;
  for (;;) {
    const table = await describe(client, tableName);
    const statuses = [table.TableStatus, ...(table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexStatus)];
    if (statuses.every((status) => status === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} is not active after ${ACTIVE_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/**
 * A table kept in `DATA_DIR` from an earlier version gets what it lacks: the stream the local event
 * log reads (missing before the audit trail), and each index added since (the notice index, missing
 * before expiry notices), one at a time as UpdateTable allows. Tokens created before then carry no
 * notice keys, so they get no expiry notices.
 */
const addWhatIsMissing = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const table = await describe(client, tableName);
  if (!table.StreamSpecification?.StreamEnabled) {
    await client.send(
      new UpdateTableCommand({ TableName: tableName, StreamSpecification: tableKeys.StreamSpecification }),
    );
  }
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of tableSchema.globalSecondaryIndexes.filter((candidate) => !present.has(candidate.indexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: indexKeys(index) }],
      }),
    );
    await waitUntilActive(client, tableName);
  }
};

/**
 * Creates the service table from the shared key schema unless it exists already, gives an existing
 * one what it lacks, and returns once every index is active.
 */
export const createTable = async (endpoint: string, tableName: string): Promise<void> => {
  const client = new DynamoDBClient({ endpoint });
  try {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: attributeDefinitions,
          ...tableKeys,
        }),
      );
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: tableSchema.timeToLiveAttribute, Enabled: true },
        }),
      );
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
      await addWhatIsMissing(client, tableName);
    }
    await waitUntilActive(client, tableName);
  } finally {
    client.destroy();
  }
};
