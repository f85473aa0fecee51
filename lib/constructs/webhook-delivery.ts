import { AUDIT_EVENT_SOURCE } from '@contract/audit';
import { PROJECT_ID_PREFIX } from '@contract/identifiers';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@contract/limits';
import { webhookDeliveryTableAccess } from '@contract/table-access';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue';
import { grantKeyUse } from './key-use';
import { type BackgroundFunctionProps, ServiceFunction, serviceEnvironment } from './service-function';
import { grantTableAccess } from './table-access';

/** Properties of the {@link WebhookDelivery}. */
export interface WebhookDeliveryProps extends BackgroundFunctionProps {
  /**
   * Where the stateless parts go (the function, its mappings and the bus's rule): a nested stack, so
   * that they do not count against the root template. The queues stay in the construct's own scope, the
   * root stack, with every stateful resource.
   */
  readonly statelessScope: Construct;
  /** The audit bus, whose events of a project are delivered. */
  readonly eventBus: IEventBus;
  /** The secrets key: the function unwraps projects' data keys to open the webhooks' signing secrets. */
  readonly secretsKey: IKey;
}

/** Entry file of the delivery function. */
export const WEBHOOK_DELIVERY_ENTRY = 'lambdas/events/deliver-webhooks.ts';

/** How long one invocation may take: a batch's receivers answer side by side, each within 10 seconds. */
const FUNCTION_TIMEOUT = Duration.seconds(30);

/** A message's retention in every queue: its original enqueue time counts, and the attempts span 24 hours. */
const RETENTION = Duration.days(4);

/**
 * Webhooks, deployed: a rule on the audit bus puts every event of a project on the first of ten queues,
 * one per attempt; a function delivers each message's event to the webhooks that receive it (the code
 * `npm start` runs, lambdas/use-cases/webhooks.ts). A message not settled is reported failed and comes
 * back after its queue's visibility timeout, the schedule's delay (`WEBHOOK_RETRY_DELAYS_SECONDS`), when
 * the queue's redrive (one receive) moves it to the next queue, the next attempt; after the tenth, to
 * the dead-letter queue. Each queue is read by its own mapping, so a slow receiver or a backlog of
 * retries holds up no first attempt.
 *
 * The function may read and write only its partitions of the table (`webhookDeliveryTableAccess`),
 * decrypt with the secrets key under a `{projectId}` context, and read these queues.
 */
export class WebhookDelivery extends Construct {
  /** The attempts' queues, first attempt first. */
  readonly queues: readonly Queue[];
  /** Where a message goes after its last attempt. */
  readonly deadLetterQueue: Queue;
  readonly function: ServiceFunction;
  /** The mappings that invoke the function, one per queue, first attempt first. */
  readonly mappings: readonly EventSourceMapping[];
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'the webhook deliveries, after their last attempt');

    const delays = [...WEBHOOK_RETRY_DELAYS_SECONDS.map((seconds) => Duration.seconds(seconds)), Duration.minutes(1)];
    const queues: Queue[] = [];
    let next: Queue = this.deadLetterQueue;
    for (let attempt = delays.length; attempt >= 1; attempt -= 1) {
      const queue = new Queue(this, `Attempt${attempt}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: RETENTION,
        // The wait before the next attempt (the last: time for the message to move to the dead-letter queue).
        visibilityTimeout: delays[attempt - 1],
        deadLetterQueue: { queue: next, maxReceiveCount: 1 },
      });
      if (attempt > 1) {
        const reason = `This queue is the dead-letter queue of attempt ${attempt - 1}: its redrive is the retry.`;
        Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason });
      }
      queues.unshift(queue);
      next = queue;
    }
    this.queues = queues;

    const stateless = new Construct(props.statelessScope, id);
    this.function = new ServiceFunction(stateless, 'Function', {
      entry: WEBHOOK_DELIVERY_ENTRY,
      description: 'Delivers audit events to the webhooks of their project, signed, one attempt per queue',
      logRetention: props.logRetention,
      environment: {
        ...serviceEnvironment(props),
        SECRETS_KEY_ID: props.secretsKey.keyArn,
        WEBHOOK_QUEUE_ARNS: Stack.of(stateless).toJsonString(queues.map((queue) => queue.queueArn)),
      },
      timeout: FUNCTION_TIMEOUT,
      invokedByQueue: true,
    });
    grantTableAccess(this.function.role, props.table, webhookDeliveryTableAccess);
    grantKeyUse(this.function.role, props.secretsKey, ['Decrypt']);
    this.mappings = queues.map((queue, index) => {
      queue.grantConsumeMessages(this.function.role);
      const mapping = new EventSourceMapping(stateless, `Attempt${index + 1}Mapping`, {
        target: this.function.lambdaFunction,
        eventSourceArn: queue.queueArn,
        batchSize: 10,
        reportBatchItemFailures: true,
      });
      Validations.of(mapping).acknowledge({
        id: 'Serverless-LambdaEventSourceMappingDestination',
        reason:
          'An SQS mapping takes no on-failure destination: a message that fails stays in its queue, whose redrive moves it to the next attempt’s queue, after the last to the dead-letter queue.',
      });
      return mapping;
    });

    this.rule = new Rule(stateless, 'Rule', {
      description: 'Audit events of a project, for its webhooks',
      eventBus: props.eventBus,
      eventPattern: {
        source: [AUDIT_EVENT_SOURCE],
        detail: { target: { projectId: { S: [{ prefix: PROJECT_ID_PREFIX }] } } },
      },
      // What EventBridge cannot put on the first queue (for 24 hours) goes to the dead-letter queue.
      targets: [new SqsQueue(queues[0] as Queue, { deadLetterQueue: this.deadLetterQueue })],
    });
  }
}
