import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

/** A whole raw API token (the 16-character display prefix alone is not one). */
const RAW_TOKEN = /svc_live_[0-9A-Za-z]{42}/g;
/** A compact JWS: a session token or any other signed JWT. */
const JWT = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g;

/** Every raw token or JWT in a text. */
export const findSecrets = (text: string): string[] => [...(text.match(RAW_TOKEN) ?? []), ...(text.match(JWT) ?? [])];

/** Reads a whole table, as often as asked, over one connection (tests only: the service itself never scans). */
export interface TableScanner {
  /** Every item of the table, read consistently. */
  scan(): Promise<Record<string, unknown>[]>;
  close(): void;
}

/**
 * A scanner of one table. A file that reads the table after every request keeps one open: a client
 * per scan costs far more than the scan of a small table (a new connection and credential chain).
 */
export const tableScanner = (endpoint: string, tableName: string): TableScanner => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
  return {
    scan: async () => {
      const items: Record<string, unknown>[] = [];
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({ TableName: tableName, ExclusiveStartKey: cursor, ConsistentRead: true }),
        );
        items.push(...(page.Items ?? []));
        cursor = page.LastEvaluatedKey;
      } while (cursor);
      return items;
    },
    close: () => client.destroy(),
  };
};

/** Every item of a table, read consistently, once. */
export const scanTable = async (endpoint: string, tableName: string): Promise<Record<string, unknown>[]> => {
  const scanner = tableScanner(endpoint, tableName);
  try {
    return await scanner.scan();
  } finally {
    scanner.close();
  }
};
