import { secretVersionCleanupTableAccess } from '@contract/table-access';
import { keyPrefix, SECRET_HEAD_SORT_KEY_PREFIX, TTL_REMOVER, tableSchema } from '@contract/table-schema';
import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type EventSourceMapping, FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue';
import { type NestedBackgroundFunctionProps, ServiceFunction, serviceEnvironment } from './service-function';
import { grantTableAccess } from './table-access';

/** Entry file of the secret-version cleanup function. */
export const SECRET_VERSION_CLEANUP_ENTRY = 'lambdas/events/purge-expired-secret-versions.ts';

const secretHeadKeys = {
  [tableSchema.partitionKey]: { S: [{ prefix: keyPrefix.secrets }] },
  [tableSchema.sortKey]: { S: [{ prefix: SECRET_HEAD_SORT_KEY_PREFIX }] },
};

/**
 * The first of the two kinds of stream record the function is invoked for: DynamoDB's TTL removing
 * (REMOVE, by the service principal `dynamodb.amazonaws.com`) an item of a secrets partition whose sort
 * key is a secret's head. A deleted secret's head is the only such item with a TTL.
 */
export const expiredSecretHeadFilter = {
  eventName: ['REMOVE'],
  userIdentity: { type: [TTL_REMOVER.type], principalId: [TTL_REMOVER.principalId] },
  dynamodb: { Keys: secretHeadKeys },
};

/**
 * The second: a head replaced by version 1 of a new life (MODIFY), which happens only when a secret
 * whose delete is past its 30 days is written again before TTL removed its head; no REMOVE follows
 * then, so the old life's versions are deleted on this record instead.
 */
export const restartedSecretHeadFilter = {
  eventName: ['MODIFY'],
  dynamodb: { Keys: secretHeadKeys, NewImage: { version: { N: ['1'] } } },
};

/** Every record the function is invoked for; every other record never reaches it. */
export const secretVersionCleanupFilters = [expiredSecretHeadFilter, restartedSecretHeadFilter];

/** Bounded retries: a record still failing after these, or after a day, goes to the dead-letter queue. */
const RETRY_ATTEMPTS = 10;
const MAX_RECORD_AGE = Duration.hours(23);

/**
 * The versions a deleted secret leaves are deleted when its head expires: the head carries the TTL of
 * its 30-day recovery window, its versions do not (a restore brings them back). An event source mapping
 * on the table's stream passes only the TTL removals of secret heads ({@link expiredSecretHeadFilter})
 * to a function that deletes the versions of that secret's ended lives. A failed batch is retried,
 * halved to isolate the failing record, and what fails every retry is described in the dead-letter
 * queue (shard and sequence numbers); running a record again is harmless.
 *
 * The function may read and delete only in the secrets partitions, and read only this table's stream.
 *
 * The function, its role, log group and the stream mapping live in `statelessScope` (a nested stack); the
 * dead-letter queue stays in the root stack.
 */
export class SecretVersionCleanup extends Construct {
  readonly function: ServiceFunction;
  readonly eventSourceMapping: EventSourceMapping;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: NestedBackgroundFunctionProps) {
    super(scope, id);
    const streamArn = props.table.tableStreamArn;
    if (streamArn === undefined) throw new Error('The secret-version cleanup needs the table to have a stream');
    this.deadLetterQueue = deadLetterQueue(this, "the secret-version cleanup's stream mapping");

    const stateless = new Construct(props.statelessScope, id);
    this.function = new ServiceFunction(stateless, 'Function', {
      entry: SECRET_VERSION_CLEANUP_ENTRY,
      description: "Deletes a deleted secret's versions once DynamoDB's TTL removes its head (30 days on)",
      logRetention: props.logRetention,
      environment: serviceEnvironment(props),
      // A secret has at most a few thousand versions: a query and 25 deletes per call, well inside this.
      timeout: Duration.minutes(1),
      invokedByStream: true,
    });
    grantTableAccess(this.function.role, props.table, secretVersionCleanupTableAccess);
    // The four stream actions a DynamoDB event source mapping needs, on this stream only.
    this.function.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [streamArn],
      }),
    );

    this.eventSourceMapping = this.function.lambdaFunction.addEventSourceMapping('TableStream', {
      eventSourceArn: streamArn,
      // The oldest record the stream holds: a mapping created after a head expired still cleans up after it.
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 10,
      filters: secretVersionCleanupFilters.map((filter) => FilterCriteria.filter(filter as Record<string, unknown>)),
      bisectBatchOnError: true,
      retryAttempts: RETRY_ATTEMPTS,
      maxRecordAge: MAX_RECORD_AGE,
      onFailure: new SqsDlq(this.deadLetterQueue),
    });
  }
}
