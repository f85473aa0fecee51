import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDbLocal } from '../../local/dynamodb-local';
import { findSecrets, scanTable } from './secret-scan';

/** Every line the service logged during the run, from the files the workers wrote (see env.ts). */
const loggedLines = (dir: string | undefined): string[] =>
  dir
    ? readdirSync(dir).flatMap((name) =>
        readFileSync(join(dir, name), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== ''),
      )
    : [];

/**
 * After the whole integration run: no item of the shared table and no line the service logged holds
 * a raw token or a JWT, and every logged line is a JSON object; then DynamoDB Local stops. A finding
 * fails the run.
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
      const lines = loggedLines(process.env.TEST_LOG_DIR);
      const leaked = findSecrets(lines.join('\n'));
      if (leaked.length > 0) throw new Error(`${leaked.length} secrets found in the service's logs`);
      const unparsable = lines.filter((line) => {
        try {
          // A log line has its message; a metrics line (embedded metric format) its `_aws` directive.
          const entry = JSON.parse(line) as { message?: unknown; _aws?: unknown };
          return typeof entry.message !== 'string' && typeof entry._aws !== 'object';
        } catch {
          return true;
        }
      });
      if (unparsable.length > 0) throw new Error(`log lines that are not JSON: ${unparsable.slice(0, 3).join(' | ')}`);
      console.log(`secret scan: ${items.length} items and ${lines.length} log lines, no raw token or JWT`);
    }
  } finally {
    if (process.env.TEST_LOG_DIR) rmSync(process.env.TEST_LOG_DIR, { recursive: true, force: true });
    await dynamo?.stop();
  }
}
