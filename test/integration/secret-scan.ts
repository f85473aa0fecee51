import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

/** A whole raw API token (the 16-character display prefix alone is not one). */
const RAW_TOKEN = /svc_live_[0-9A-Za-z]{42}/g;
/** A compact JWS: a session token or any other signed JWT. */
const JWT = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g;

/** Every raw token or JWT in a text. */
export const findSecrets = (text: string): string[] => [...(text.match(RAW_TOKEN) ?? []), ...(text.match(JWT) ?? [])];

/** Every item of a table, read consistently (tests only: the service itself never scans). */
export const scanTable = async (endpoint: string, tableName: string): Promise<Record<string, unknown>[]> => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
  const items: Record<string, unknown>[] = [];
  try {
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: tableName, ExclusiveStartKey: cursor, ConsistentRead: true }),
      );
      items.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
  } finally {
    client.destroy();
  }
  return items;
};
