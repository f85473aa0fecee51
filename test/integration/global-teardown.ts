import type { DynamoDbLocal } from '../../local/dynamodb-local';

/** Stops the DynamoDB Local of the global setup. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: DynamoDbLocal }).__dynamo?.stop();
}
