import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { createAlarmTopic } from './alarm-topic';
import { createAlarms } from './alarms';
import { OperationsDashboard, type WebAclMetrics } from './operations-dashboard';
import { type WatchedFunction, watchedMetrics } from './watched-metrics';

/** Properties of {@link Observability}. */
export interface ObservabilityProps {
  /**
   * Where the alarms and the authorizer-failure metric filter go: a nested stack, so that they do not
   * count against the root template. The topic (and its key) and the dashboard, whose name is fixed,
   * stay in the construct's own scope, the root stack.
   */
  readonly statelessScope: Construct;
  /** The API stage whose metrics are watched (ApiName + Stage dimensions). */
  readonly stage: Stage;
  /** The stage's JSON access log: authorizer failures are counted from its `errorType` field. */
  readonly accessLogs: ILogGroup;
  /** The REQUEST authorizer's function. */
  readonly authorizer: WatchedFunction;
  /** The route functions. */
  readonly routeFunctions: readonly WatchedFunction[];
  /** The service's table. */
  readonly table: Table;
  /** Its global secondary indexes, whose throttles are watched too. */
  readonly indexNames: readonly string[];
  /** An e-mail address to subscribe to the alarm topic. */
  readonly alarmEmail?: string;
  /** The web ACL in front of the stage, if any: adds its request counts to the dashboard. */
  readonly webAcl?: WebAclMetrics;
  /** The audit pipe's dead-letter queue: a message there is a batch of audit events the bus never got. */
  readonly auditDeadLetterQueue: IQueue;
  /** Name of the audit event bus, whose rules may publish to the alarm topic (e.g. `token.denied` events). */
  readonly auditEventBusName: string;
  /** The expiry-notice schedule's and function's dead-letter queue: a message there is a run that failed every attempt. */
  readonly expiryNoticeDeadLetterQueue: IQueue;
  /** The secret-version cleanup's dead-letter queue: a message there is a stream batch it failed to clean up after. */
  readonly secretVersionCleanupDeadLetterQueue: IQueue;
  /** The webhook deliveries' dead-letter queue: a message there is an event whose last attempt failed for some webhook. */
  readonly webhookDeadLetterQueue: IQueue;
}

/**
 * Guard rails of the running service, one part per file: the alarm topic (alarm-topic.ts), the alarms on
 * the API's 5XX rate, the authorizer, the audit pipe, the expiry notices, every function and the table
 * (alarms.ts), and the CloudWatch dashboard (operations-dashboard.ts), over the metrics both read
 * (watched-metrics.ts). The topic and the dashboard are created in this scope, where their construct
 * paths, and so their logical IDs, have always been: a new topic would lose its subscriptions, and a
 * dashboard of the same name created elsewhere would be deleted with the old resource. The alarms
 * (but a route function's, which sit beside it) and their metric filter are stateless, and go to
 * `statelessScope` under a scope of this id.
 */
export class Observability extends Construct {
  /** The topic every alarm notifies, on ALARM and on OK. */
  readonly topic: Topic;
  /** Every alarm, in creation order. */
  readonly alarms: readonly Alarm[];
  /** The dashboard. */
  readonly dashboard: OperationsDashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = createAlarmTopic(this, { alarmEmail: props.alarmEmail, auditEventBusName: props.auditEventBusName });
    const metrics = watchedMetrics(props.table, props.indexNames);
    this.alarms = createAlarms(new Construct(props.statelessScope, id), { ...props, topic: this.topic, metrics });
    this.dashboard = new OperationsDashboard(this, 'Dashboard', { ...props, alarms: this.alarms, metrics });
  }
}
