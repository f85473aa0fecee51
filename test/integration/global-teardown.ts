import type { DynamoDbLocal } from '../../local/dynamodb-local';
import { findSecrets, scanTable } from './secret-scan';

/**
 * After the whole integration run: no item of the shared table holds a raw token or a JWT, then
 * DynamoDB Local stops. A finding fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  const dynamo = (globalThis as { __dynamo?: DynamoDbLocal }).__dynamo;
  try {
    const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
    const tableName = process.env.TEST_TABLE_NAME;
    if (endpoint && tableName) {
      const items = await scanTable(endpoint, tableName);
      const found = findSecrets(JSON.stringify(items));
      if (found.length > 0) throw new Error(`${found.length} secrets found in the table after the run`);
      console.log(`secret scan: ${items.length} items, no raw token or JWT`);
    }
  } finally {
    await dynamo?.stop();
  }
}
