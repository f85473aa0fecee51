import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableKeys } from '../contract/table-keys';
import { tableSchema } from '../contract/table-schema';

/**
 * A table kept in `DATA_DIR` from before the audit trail has no stream, and the local event log reads
 * the stream: it gets the one a new table is created with.
 */
const addMissingStream = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (table?.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({ TableName: tableName, StreamSpecification: tableKeys.StreamSpecification }),
  );
};

/** Creates the service table from the shared key schema unless it exists already, and gives it its stream. */
export const createTable = async (endpoint: string, tableName: string): Promise<void> => {
  const client = new DynamoDBClient({ endpoint });
  const stringAttribute = (AttributeName: string) => ({ AttributeName, AttributeType: 'S' as const });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          stringAttribute(tableSchema.partitionKey),
          stringAttribute(tableSchema.sortKey),
          ...tableSchema.globalSecondaryIndexes.flatMap((index) => [
            stringAttribute(index.partitionKey),
            stringAttribute(index.sortKey),
          ]),
        ],
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
    await addMissingStream(client, tableName);
  } finally {
    client.destroy();
  }
};
