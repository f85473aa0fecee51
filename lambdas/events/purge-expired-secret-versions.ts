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

/** Whether a record ends a life of a secret: TTL removing its head, or version 1 of a new life replacing it. */
const endsALife = (record: DynamoDBRecord): boolean => {
  if (record.eventName === 'MODIFY') return record.dynamodb?.NewImage?.version?.N === '1';
  const identity = record.userIdentity as { type?: unknown; principalId?: unknown } | undefined;
  return (
    record.eventName === 'REMOVE' &&
    identity?.type === TTL_REMOVER.type &&
    identity.principalId === TTL_REMOVER.principalId
  );
};

/** The secret a record names whose ended lives' versions are to go, else none. */
const expiredSecretOf = (record: DynamoDBRecord) => {
  const keys = record.dynamodb?.Keys;
  if (!keys || !endsALife(record)) return undefined;
  const key = unmarshall(keys as Record<string, AttributeValue>) as ItemKey;
  const secret = secretOfHeadKey(key);
  return secret && { key: { PK: key.PK, SK: key.SK }, ...secret };
};

/**
 * Runs on the table's stream, for the records its event source filters pass: DynamoDB's TTL removing a
 * deleted secret's head, 30 days after the delete, or a new life's version 1 replacing a head whose
 * delete expired before TTL removed it. Deletes the versions of that secret's ended lives,
 * one record after another, in order. Any other record is logged and skipped. A failure is thrown: the
 * event source mapping retries, halving the batch to isolate the record, and keeps what still fails in
 * its dead-letter queue.
 */
export const purgeExpiredSecretVersionsHandler = async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const secret = expiredSecretOf(record);
    if (!secret) {
      logger.warn('stream record skipped: it ends no life of a secret', { eventId: record.eventID });
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
