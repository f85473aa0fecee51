import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/** What {@link createAlarmTopic} needs to know. */
export interface AlarmTopicProps {
  /** An e-mail address to subscribe to the topic. */
  readonly alarmEmail?: string;
  /** Name of the audit event bus, whose rules may publish to the topic (e.g. `token.denied` events). */
  readonly auditEventBusName: string;
}

/**
 * The topic every alarm notifies, on ALARM and on OK: KMS-encrypted with its own key, SSL-only, open to
 * this account's CloudWatch alarms and the audit bus's rules, with the optional e-mail subscription.
 * Created in `scope` as `AlarmTopicKey` and `AlarmTopic`.
 */
export const createAlarmTopic = (scope: Construct, props: AlarmTopicProps): Topic => {
  // A customer managed key: CloudWatch may only publish to an encrypted topic whose key policy lets
  // it use the key, which the AWS managed aws/sns key cannot grant.
  const key = new Key(scope, 'AlarmTopicKey', {
    description: 'Encrypts the Secrets Service alarm topic',
    enableKeyRotation: true,
    // The key protects notifications in flight only, no stored data: scheduled for deletion with the stack.
    removalPolicy: RemovalPolicy.DESTROY,
    pendingWindow: Duration.days(7),
  });
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchAlarmsPublishToTheEncryptedTopic',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  // EventBridge encrypts what a rule's target publishes with the topic's key, like CloudWatch does.
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AuditBusRulesPublishToTheEncryptedTopic',
      principals: [new ServicePrincipal('events.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );

  const topic = new Topic(scope, 'AlarmTopic', {
    displayName: 'Secrets Service alarms',
    masterKey: key,
    enforceSSL: true,
  });
  // A topic policy replaces the default one, so CloudWatch is let in explicitly, for this account's alarms only.
  const { account, region, partition } = Stack.of(scope);
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchAlarmsPublish',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        StringEquals: { 'aws:SourceAccount': account },
      },
    }),
  );
  // Rules of the audit bus may page too (docs/operations.md: `token.denied` events to the alarm
  // topic); rules of other buses may not. A rule of a custom bus is `rule/<bus name>/<rule name>`.
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AuditBusRulesPublish',
      principals: [new ServicePrincipal('events.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        ArnLike: {
          'aws:SourceArn': `arn:${partition}:events:${region}:${account}:rule/${props.auditEventBusName}/*`,
        },
        StringEquals: { 'aws:SourceAccount': account },
      },
    }),
  );

  if (props.alarmEmail !== undefined) {
    const subscription = topic.addSubscription(new EmailSubscription(props.alarmEmail));
    Validations.of(subscription).acknowledge({
      id: 'Serverless-SNSRedrivePolicy',
      reason:
        'The only subscription is an e-mail address: a notification it cannot take (bounce, unconfirmed address) would wait in a dead-letter queue nobody reads, while the alarm itself stays in ALARM on the console and the dashboard.',
    });
  }
  return topic;
};
