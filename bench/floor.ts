import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

// The floor every bundle is measured against: a bare DynamoDB client and one GetItem, nothing else.
const client = new DynamoDBClient({});

export const handler = () =>
  client.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { PK: { S: 'a' }, SK: { S: 'b' } } }));
