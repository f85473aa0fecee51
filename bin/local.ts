import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTable } from '../local/create-table';
import { type DynamoDbLocal, JavaMissingError, startDynamoDbLocal } from '../local/dynamodb-local';
import { startLocalService } from '../local/service';

const TABLE_NAME = process.env.TABLE_NAME ?? 'secrets-service-local';

const main = async (): Promise<void> => {
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const external = process.env.DYNAMODB_ENDPOINT;
  const dynamo: DynamoDbLocal | undefined = external ? undefined : await startDynamoDbLocal({ dataDir });
  const endpoint = external ?? dynamo?.endpoint ?? '';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.AWS_REGION ??= 'us-east-1';
  await createTable(endpoint, TABLE_NAME);
  const service = await startLocalService({
    dynamoEndpoint: endpoint,
    tableName: TABLE_NAME,
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? '::',
    dataDir,
  });

  console.log(
    `Secrets Service API on ${service.baseUrl}/api/v1 (DynamoDB: ${endpoint}${dataDir ? `, data in ${dataDir}` : ', in memory'})`,
  );
  console.log('Get a dashboard session token:');
  console.log(`  npm run session -- you@example.com`);
  console.log(
    `  curl -s -X POST ${service.baseUrl}/_dev/idp/token -H 'Content-Type: application/json' -d '{"email":"you@example.com"}'`,
  );
  console.log('Ctrl-C stops the service and DynamoDB Local.');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await service.close();
    await dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
};

main().catch((error: unknown) => {
  console.error(error instanceof JavaMissingError ? error.message : error);
  process.exit(1);
});
