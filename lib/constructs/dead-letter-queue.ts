import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { PolicySharingQueue, type SharedQueuePolicy } from './shared-queue-policy';

/**
 * The queue that keeps, for an operator, what `of` failed to deliver after its retries: encrypted,
 * TLS only, 14 days. It is itself a dead-letter queue, so cdk-nag's wish that it have one is
 * acknowledged with that reason. With `policy`, its TLS-only statement, and whatever is granted on it,
 * are in that shared policy rather than in a policy of its own.
 */
export function deadLetterQueue(scope: Construct, of: string): Queue;
export function deadLetterQueue(scope: Construct, of: string, policy: SharedQueuePolicy): PolicySharingQueue;
export function deadLetterQueue(scope: Construct, of: string, policy?: SharedQueuePolicy): Queue {
  const props = { encryption: QueueEncryption.SQS_MANAGED, retentionPeriod: Duration.days(14) };
  const queue = policy
    ? new PolicySharingQueue(scope, 'DeadLetterQueue', { ...props, policy })
    : new Queue(scope, 'DeadLetterQueue', { ...props, enforceSSL: true });
  const reason = `This queue is itself the dead-letter queue of ${of}.`;
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason }, { id: 'Serverless-SQSRedrivePolicy', reason });
  return queue;
}
