import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { deliveries } from '@lambdas/composition/webhooks';
import { requiredEnv } from '@lambdas/env';
import { auditEventOfBusEvent } from '@lambdas/events/bus-event';
import { logger, tracer } from '@lambdas/observability';
import middy from '@middy/core';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/**
 * Delivers the audit events of the webhook queues (docs/operations.md, "Webhooks"). The rule on the
 * audit bus puts each event of a project on the first queue; each queue is one attempt, and a message
 * whose deliveries are not all settled is reported failed, so that it comes back after that queue's
 * visibility timeout and its redrive moves it to the next queue: the next attempt, the schedule's delay
 * later. After the last attempt it moves to the dead-letter queue. One message carries an event to
 * every webhook that receives it; a later attempt sends only to those not yet settled.
 */

/** The queues' ARNs in attempt order (`WEBHOOK_QUEUE_ARNS`, a JSON list): a message's queue is its attempt. */
const queueArns = JSON.parse(requiredEnv('WEBHOOK_QUEUE_ARNS')) as string[];

/** The attempt of a message, from the queue it came from. */
const attemptOf = (record: SQSRecord): number => {
  const index = queueArns.indexOf(record.eventSourceARN);
  if (index < 0) throw new Error(`Message ${record.messageId} is from no webhook queue: ${record.eventSourceARN}`);
  return index + 1;
};

/** The deliveries of one message: `true` when every one is settled (delivered, failed, or its webhook gone). */
const deliverMessage = async (record: SQSRecord): Promise<boolean> => {
  const attempt = attemptOf(record);
  const event = auditEventOfBusEvent(JSON.parse(record.body) as { detail: unknown });
  const jobs = await deliveries.jobsFor(event);
  const outcomes = await Promise.all(
    jobs.map(async (job) =>
      attempt > 1 && (await deliveries.settled(job)) ? 'settled' : deliveries.attempt(job, attempt),
    ),
  );
  logger.info('webhook deliveries', { eventId: event.id, attempt, outcomes });
  // A last attempt that failed is reported too: the message then goes to the dead-letter queue.
  return !outcomes.some((outcome) => outcome === 'retrying' || outcome === 'failed');
};

export const deliverWebhooksHandler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchItemFailure[] = [];
  // Side by side: a slow receiver holds up no other message of the batch.
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        if (!(await deliverMessage(record))) batchItemFailures.push({ itemIdentifier: record.messageId });
      } catch (error) {
        logger.error('webhook delivery failed', { messageId: record.messageId, error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
};

export const handler = middy(deliverWebhooksHandler)
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(injectLambdaContext(logger));
