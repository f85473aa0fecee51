import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTable } from '../../local/create-table';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { TEST_JAVA_OPTIONS } from './dynamodb-java';

/** Starts DynamoDB Local once for the whole run; test workers inherit its endpoint. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal({ javaOptions: TEST_JAVA_OPTIONS });
  const tableName = 'secrets-service-test';
  await createTable(dynamo.endpoint, tableName);
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TEST_TABLE_NAME = tableName;
  process.env.TEST_LOG_DIR = mkdtempSync(join(tmpdir(), 'integration-logs-'));
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
