import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * The queue that keeps, for an operator, what `of` failed to deliver after its retries: encrypted,
 * TLS only, 14 days. It is itself a dead-letter queue, so cdk-nag's wish that it have one is
 * acknowledged with that reason.
 */
export const deadLetterQueue = (scope: Construct, of: string): Queue => {
  const queue = new Queue(scope, 'DeadLetterQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const reason = `This queue is itself the dead-letter queue of ${of}.`;
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason }, { id: 'Serverless-SQSRedrivePolicy', reason });
  return queue;
};
