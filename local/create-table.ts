import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableKeys } from '../contract/table-keys';
import { tableSchema } from '../contract/table-schema';

/** Creates the service table from the shared key schema unless it exists already. */
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
  } finally {
    client.destroy();
  }
};
