import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { TTL_REMOVER } from '@contract/table-schema';
import { secretCleanup } from '@lambdas/composition/secret-cleanup';
import { type ItemKey, secretOfHeadKey } from '@lambdas/data/keys';
import { logger, tracer } from '@lambdas/observability';
import middy from '@middy/core';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

/** The expired secret a record names: the TTL removal of a secret's head, else none. */
const expiredSecretOf = (record: DynamoDBRecord) => {
  const identity = record.userIdentity as { type?: unknown; principalId?: unknown } | undefined;
  const keys = record.dynamodb?.Keys;
  if (record.eventName !== 'REMOVE' || !keys) return undefined;
  if (identity?.type !== TTL_REMOVER.type || identity.principalId !== TTL_REMOVER.principalId) return undefined;
  const key = unmarshall(keys as Record<string, AttributeValue>) as ItemKey;
  const secret = secretOfHeadKey(key);
  return secret && { key: { PK: key.PK, SK: key.SK }, ...secret };
};

/**
 * Runs on the table's stream, for the records its event source filter passes: DynamoDB's TTL removing a
 * deleted secret's head, 30 days after the delete. Deletes the versions of that secret's ended lives,
 * one record after another, in order. Any other record is logged and skipped. A failure is thrown: the
 * event source mapping retries, halving the batch to isolate the record, and keeps what still fails in
 * its dead-letter queue.
 */
export const purgeExpiredSecretVersionsHandler = async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const secret = expiredSecretOf(record);
    if (!secret) {
      logger.warn('stream record skipped: not the TTL removal of a secret head', { eventId: record.eventID });
      continue;
    }
    const about = { eventId: record.eventID, partition: secret.partition, name: secret.name };
    try {
      const cleanup = await secretCleanup.purgeExpiredSecretVersions(secret);
      logger.info('expired secret versions deleted', { ...about, ...cleanup });
    } catch (error) {
      logger.error('expired secret versions not deleted', { ...about, error });
      throw error;
    }
  }
};

export const handler = middy(purgeExpiredSecretVersionsHandler)
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(injectLambdaContext(logger));
