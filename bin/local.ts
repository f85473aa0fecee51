import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTable } from '../local/create-table';
import { type DynamoDbLocal, JavaMissingError, startDynamoDbLocal } from '../local/dynamodb-local';
import { type LocalService, startLocalService } from '../local/service';

const TABLE_NAME = process.env.TABLE_NAME ?? 'secrets-service-local';
const PORT = Number(process.env.PORT ?? 3000);

let dynamo: DynamoDbLocal | undefined;
let service: LocalService | undefined;

/** Stops whatever has started, so no DynamoDB Local outlives this process. */
const shutdown = async (code: number): Promise<never> => {
  await service?.close().catch(() => undefined);
  await dynamo?.stop().catch(() => undefined);
  process.exit(code);
};

const explain = (error: unknown): unknown => {
  if (error instanceof JavaMissingError) return error.message;
  if ((error as { code?: string }).code === 'EADDRINUSE')
    return `Port ${PORT} is in use: stop what runs there or set PORT.`;
  return error;
};

const main = async (): Promise<void> => {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // DynamoDB Local accepts any credentials; these keep the SDK from looking for real ones.
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.AWS_REGION ??= 'us-east-1';

  const external = process.env.DYNAMODB_ENDPOINT;
  if (!external) dynamo = await startDynamoDbLocal({ dataDir });
  const endpoint = external ?? dynamo?.endpoint ?? '';
  await createTable(endpoint, TABLE_NAME);
  service = await startLocalService({
    dynamoEndpoint: endpoint,
    tableName: TABLE_NAME,
    port: PORT,
    host: process.env.HOST ?? '::',
    dataDir,
    dashboardOrigin: process.env.DASHBOARD_ORIGIN || undefined,
  });

  const storage = dataDir ? `data in ${dataDir}` : 'in memory';
  console.log(`Secrets Service API on ${service.baseUrl}/api/v1 (DynamoDB ${endpoint}, ${storage})`);
  console.log('Get a dashboard session token:');
  console.log('  npm run session -- you@example.com');
  console.log(
    `  curl -s -X POST ${service.baseUrl}/_dev/idp/token -H 'Content-Type: application/json' -d '{"email":"you@example.com"}'`,
  );
  console.log('Ctrl-C stops the service and DynamoDB Local.');
};

main().catch(async (error: unknown) => {
  console.error(explain(error));
  await shutdown(1);
});
