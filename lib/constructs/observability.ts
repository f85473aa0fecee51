import { routes } from '@contract/routes';
import {
  AUDIT_DENIAL_EVENTS_METRIC,
  AUTHORIZER_DECISION_DIMENSION,
  AUTHORIZER_DECISION_METRIC,
  AUTHORIZER_DECISION_OUTCOMES,
  AUTHORIZER_FAILURES_METRIC,
  COLD_START_DIMENSION,
  COLD_START_METRIC,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
  SERVICE_NAME,
} from '@contract/service-metrics';
import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A function to watch, with the name shown in alarm descriptions and on the dashboard. */
export interface WatchedFunction {
  /** Short name, e.g. the route's handler (`create-token`) or `authorizer`. */
  readonly name: string;
  /** The function. */
  readonly lambdaFunction: IFunction;
}

/** The web ACL's metric names, for the dashboard (see `WebAcl`). */
export interface WebAclMetrics {
  /** `WebACL` dimension: the web ACL's metric name. */
  readonly webAclMetricName: string;
  /** `Rule` dimension of each rule that blocks (the "Blocked by rule" graph): its metric name. */
  readonly ruleMetricNames: readonly string[];
}

/** Properties of {@link Observability}. */
export interface ObservabilityProps {
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
}

/**
 * Every alarm evaluates 5-minute periods: API Gateway, Lambda and DynamoDB publish 1-minute data, and
 * 5 minutes smooths single slow or failed requests without delaying a page by much.
 */
const PERIOD = Duration.minutes(5);

/*
 * Thresholds are fixed constants rather than context keys: each follows from how the service behaves
 * (which errors the handlers answer themselves, that the SDK retries DynamoDB, that a generic 401 is a
 * thrown error in the authorizer), so changing one is a code change reviewed with the stack tests.
 */

/** Percentage of 5XX answers at which the API alarm fires ... */
const API_5XX_RATE_PERCENT = 5;
/** ... once a period has at least this many requests (below it, one failure would be a 100 % rate). */
const API_5XX_MIN_REQUESTS = 10;
/** Requests answered AUTHORIZER_FAILURE/AUTHORIZER_CONFIGURATION_ERROR (503) in a period. */
const AUTHORIZER_FAILURES = 5;
/**
 * Percentage of authorizer invocations ending in an error. Every generic 401 is a thrown `Unauthorized`
 * (the only way to reach API Gateway's UNAUTHORIZED response), so Lambda counts each refused credential
 * as an error: this is a rate over a floor of invocations, not a count.
 */
const AUTHORIZER_ERROR_RATE_PERCENT = 50;
const AUTHORIZER_ERROR_MIN_INVOCATIONS = 20;
/** Unhandled route function errors in a period: the handlers answer every expected error themselves. */
const ROUTE_FUNCTION_ERRORS = 1;
/** Throttled invocations of any function in a period: each one is a failed request. */
const FUNCTION_THROTTLES = 1;
/** Throttled DynamoDB requests, or throttle events, in a period; the SDK retries single ones unseen. */
const TABLE_THROTTLES = 5;
/** DynamoDB internal errors (HTTP 500) in a period; the SDK retries single ones unseen. */
const TABLE_SYSTEM_ERRORS = 5;
/**
 * Denials must page within minutes, so their alarm reads 1-minute periods (the authorizer's embedded
 * metrics have 1-minute resolution).
 */
const DENIAL_PERIOD = Duration.minutes(1);
/**
 * `token.denied` events in one minute. A denial is a real token refused (expired, another address, a
 * missing scope), never a malformed or unknown one; a misconfigured job that keeps retrying with an
 * expired or unbound token makes a few a minute, while 10 (one every 6 seconds, sustained for a minute)
 * is a token being tried from somewhere it does not belong, or a client looping on a refusal. Either
 * needs a person.
 */
const DENIAL_EVENTS_PER_MINUTE = 10;
/** Messages in the audit pipe's dead-letter queue: each one is audit events the bus never received. */
const AUDIT_UNDELIVERED_BATCHES = 1;
/** Messages in the expiry-notice dead-letter queue: each one is an hourly run that failed every attempt. */
const EXPIRY_NOTICE_FAILED_RUNS = 1;

/**
 * The DynamoDB operations the service calls (ThrottledRequests and SystemErrors carry an `Operation`
 * dimension and have no table-wide total). The conditional checks and puts of a transaction are
 * reported under TransactWriteItems. An alarm's math expression may use at most 10 metrics.
 */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.TRANSACT_WRITE_ITEMS,
] as const;

/** What one alarm watches, for {@link Observability.addAlarm}. */
interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm?: number;
  readonly description: string;
}

/** `get-item` style ids are not valid metric ids in math expressions: `getItem`. */
const metricId = (prefix: string, name: string): string =>
  `${prefix}${name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_match, _separator, letter: string) => letter.toUpperCase())}`;

/** Sum of sparse metrics (DynamoDB publishes throttles and errors only when they happen): FILL each with 0. */
/** The dimension Powertools Metrics gives every metric the functions publish: part of each metric's identity. */
const serviceDimension = { [SERVICE_DIMENSION]: SERVICE_NAME };

const sumOf = (label: string, metrics: Record<string, IMetric>): MathExpression =>
  new MathExpression({
    expression: Object.keys(metrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics: metrics,
    label,
    period: PERIOD,
  });

/**
 * Guard rails of the running service: the alarm topic (KMS-encrypted, SSL-only, optional e-mail
 * subscription), alarms on the API's 5XX rate, the authorizer, every function and the table, and one
 * dashboard of the API, the authorizer's decisions, the functions and the table.
 */
export class Observability extends Construct {
  /** The topic every alarm notifies, on ALARM and on OK. */
  readonly topic: Topic;
  /** Every alarm, in creation order. */
  readonly alarms: Alarm[] = [];
  /** The dashboard. */
  readonly dashboard: Dashboard;
  /** The metric counted from the access log: requests the authorizer failed to judge. */
  readonly authorizerFailures: Metric;
  /** `token.denied` events per minute, as the authorizer publishes them. */
  readonly denialEvents: Metric;

  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { stage, authorizer, routeFunctions, table } = props;

    this.topic = this.createTopic(props.alarmEmail, props.auditEventBusName);
    this.action = new SnsAction(this.topic);

    new MetricFilter(this, 'AuthorizerFailuresFilter', {
      logGroup: props.accessLogs,
      // The access log's errorType is $context.error.responseType: what API Gateway answered with.
      filterPattern: FilterPattern.any(
        FilterPattern.stringValue('$.errorType', '=', 'AUTHORIZER_FAILURE'),
        FilterPattern.stringValue('$.errorType', '=', 'AUTHORIZER_CONFIGURATION_ERROR'),
      ),
      metricNamespace: METRICS_NAMESPACE,
      metricName: AUTHORIZER_FAILURES_METRIC,
      metricValue: '1',
    });
    this.authorizerFailures = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: AUTHORIZER_FAILURES_METRIC,
      statistic: 'Sum',
      period: PERIOD,
      label: 'Authorizer failures (503)',
    });

    // API
    this.addAlarm('Api5xxRate', {
      metric: new MathExpression({
        expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: {
          errors: stage.metricServerError({ statistic: 'Sum', period: PERIOD }),
          requests: stage.metricCount({ statistic: 'Sum', period: PERIOD }),
        },
        label: '5XX rate (%)',
        period: PERIOD,
      }),
      threshold: API_5XX_RATE_PERCENT,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: `API 5XX rate at or above ${API_5XX_RATE_PERCENT}% (of at least ${API_5XX_MIN_REQUESTS} requests per 5 minutes) in 2 of the last 3 periods: clients are getting 500 or 503 answers. See the dashboard and the access log's errorType.`,
    });

    // Authorizer
    this.addAlarm('AuthorizerFailures', {
      metric: this.authorizerFailures,
      threshold: AUTHORIZER_FAILURES,
      evaluationPeriods: 1,
      description: `At least ${AUTHORIZER_FAILURES} requests in 5 minutes answered 503 because the authorizer failed (crash, timeout, DynamoDB or the identity provider's JWKS unreachable). Counted from the access log's errorType; see the authorizer's log.`,
    });
    this.addAlarm('AuthorizerErrorRate', {
      metric: new MathExpression({
        expression: `IF(invocations >= ${AUTHORIZER_ERROR_MIN_INVOCATIONS}, 100 * errors / invocations, 0)`,
        usingMetrics: {
          errors: authorizer.lambdaFunction.metricErrors({ statistic: 'Sum', period: PERIOD }),
          invocations: authorizer.lambdaFunction.metricInvocations({ statistic: 'Sum', period: PERIOD }),
        },
        label: 'Authorizer errors (%)',
        period: PERIOD,
      }),
      threshold: AUTHORIZER_ERROR_RATE_PERCENT,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: `At least ${AUTHORIZER_ERROR_RATE_PERCENT}% of authorizer invocations (of at least ${AUTHORIZER_ERROR_MIN_INVOCATIONS} per 5 minutes) ended in an error in 2 of the last 3 periods. Each generic 401 counts as an error, so this means most credentials are refused: a wrong session issuer or audience, or a flood of bad tokens. See the AuthorizerDecision metrics and the authorizer's log.`,
    });
    this.addAlarm('AuthorizerThrottles', this.throttlesSpec(authorizer));

    // Audit
    this.denialEvents = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: AUDIT_DENIAL_EVENTS_METRIC,
      dimensionsMap: serviceDimension,
      statistic: 'Sum',
      period: DENIAL_PERIOD,
      label: 'Token denials (token.denied events)',
    });
    this.addAlarm('TokenDenialEvents', {
      metric: this.denialEvents,
      threshold: DENIAL_EVENTS_PER_MINUTE,
      evaluationPeriods: 1,
      description: `At least ${DENIAL_EVENTS_PER_MINUTE} existing tokens were refused (expired, another address or a missing scope) in one minute: a token tried from where it does not belong, or a client looping on a refusal. Find the tokens in the token.denied events (audit trail, or the audit bus) and revoke what is not yours.`,
    });
    this.addAlarm('AuditDeliveryFailures', {
      metric: props.auditDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        statistic: 'Maximum',
        period: PERIOD,
      }),
      threshold: AUDIT_UNDELIVERED_BATCHES,
      evaluationPeriods: 1,
      description: `The audit pipe gave up on a batch of stream records (after its retries, or an hour): those audit events never reached the event bus. Each message in the audit dead-letter queue (AuditDeadLetterQueueUrl) names the shard and sequence numbers; the events are still in the table (the audit trail routes) and the stream keeps the records 24 hours. Put them on the bus again, then delete the message.`,
    });

    this.addAlarm('ExpiryNoticeFailures', {
      metric: props.expiryNoticeDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        statistic: 'Maximum',
        period: PERIOD,
      }),
      threshold: EXPIRY_NOTICE_FAILED_RUNS,
      evaluationPeriods: 1,
      description: `An hourly expiry-notice run failed every attempt (Scheduler could not invoke the function, or the function failed three times); its message is in the expiry-notice dead-letter queue (ExpiryNoticeDeadLetterQueueUrl). The next run sends whatever is still due, so nothing is lost while runs succeed again; see the function's log for the cause, then delete the message.`,
    });

    // Route functions
    for (const fn of routeFunctions) {
      const name = metricId('', fn.name);
      this.addAlarm(`${name}Errors`, {
        metric: fn.lambdaFunction.metricErrors({ statistic: 'Sum', period: PERIOD }),
        threshold: ROUTE_FUNCTION_ERRORS,
        evaluationPeriods: 1,
        description: `The ${fn.name} function ended an invocation with an unhandled error (crash, timeout or out of memory) in the last 5 minutes; the handler answers every expected error itself, so this is a bug or an outage. See its log.`,
      });
      this.addAlarm(`${name}Throttles`, this.throttlesSpec(fn));
    }

    // Table
    const throttledRequests = sumOf(
      'Throttled requests',
      Object.fromEntries(
        TABLE_OPERATIONS.map((operation) => [
          metricId('throttled', operation),
          table.metricThrottledRequestsForOperation(operation, { statistic: 'Sum', period: PERIOD }),
        ]),
      ),
    );
    const throttleEvents = sumOf(
      'Throttle events (table and indexes)',
      this.throttleEventMetrics(table, props.indexNames),
    );
    const systemErrors = sumOf(
      'System errors',
      Object.fromEntries(
        TABLE_OPERATIONS.map((operation) => [
          metricId('errors', operation),
          table.metric('SystemErrors', {
            statistic: 'Sum',
            period: PERIOD,
            dimensionsMap: { TableName: table.tableName, Operation: operation },
          }),
        ]),
      ),
    );
    this.addAlarm('TableThrottledRequests', {
      metric: throttledRequests,
      threshold: TABLE_THROTTLES,
      evaluationPeriods: 1,
      description: `At least ${TABLE_THROTTLES} DynamoDB requests were throttled in 5 minutes (an on-demand limit or a hot key such as one token used by many callers). The SDK retries; what still fails is answered 503.`,
    });
    this.addAlarm('TableThrottleEvents', {
      metric: throttleEvents,
      threshold: TABLE_THROTTLES,
      evaluationPeriods: 1,
      description: `At least ${TABLE_THROTTLES} read or write throttle events on the table or its indexes in 5 minutes: on-demand tables throttle at their maximum throughput, per partition, or when an index cannot keep up with writes.`,
    });
    this.addAlarm('TableSystemErrors', {
      metric: systemErrors,
      threshold: TABLE_SYSTEM_ERRORS,
      evaluationPeriods: 1,
      description: `At least ${TABLE_SYSTEM_ERRORS} DynamoDB requests failed with an internal error (HTTP 500) in 5 minutes. The SDK retries; what still fails is answered 503. Check the AWS Health Dashboard.`,
    });

    this.dashboard = this.createDashboard(props, { throttledRequests, throttleEvents, systemErrors });
  }

  /** The KMS-encrypted, SSL-only topic the alarms notify, with the optional e-mail subscription. */
  private createTopic(alarmEmail: string | undefined, auditEventBusName: string): Topic {
    // A customer managed key: CloudWatch may only publish to an encrypted topic whose key policy lets
    // it use the key, which the AWS managed aws/sns key cannot grant.
    const key = new Key(this, 'AlarmTopicKey', {
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

    const topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Secrets Service alarms',
      masterKey: key,
      enforceSSL: true,
    });
    // A topic policy replaces the default one, so CloudWatch is let in explicitly, for this account's alarms only.
    const { account, region, partition } = Stack.of(this);
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
          ArnLike: { 'aws:SourceArn': `arn:${partition}:events:${region}:${account}:rule/${auditEventBusName}/*` },
          StringEquals: { 'aws:SourceAccount': account },
        },
      }),
    );

    if (alarmEmail !== undefined) {
      const subscription = topic.addSubscription(new EmailSubscription(alarmEmail));
      Validations.of(subscription).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason:
          'The only subscription is an e-mail address: a notification it cannot take (bounce, unconfirmed address) would wait in a dead-letter queue nobody reads, while the alarm itself stays in ALARM on the console and the dashboard.',
      });
    }
    return topic;
  }

  private throttlesSpec(fn: WatchedFunction): AlarmSpec {
    return {
      metric: fn.lambdaFunction.metricThrottles({ statistic: 'Sum', period: PERIOD }),
      threshold: FUNCTION_THROTTLES,
      evaluationPeriods: 1,
      description: `Lambda throttled the ${fn.name} function in the last 5 minutes: each throttle is a failed request. The account's concurrency limit is reached; raise it or reserve concurrency.`,
    };
  }

  private throttleEventMetrics(table: Table, indexNames: readonly string[]): Record<string, IMetric> {
    const metrics: Record<string, IMetric> = {
      readTable: table.metric('ReadThrottleEvents', { statistic: 'Sum', period: PERIOD }),
      writeTable: table.metric('WriteThrottleEvents', { statistic: 'Sum', period: PERIOD }),
    };
    for (const indexName of indexNames) {
      for (const kind of ['Read', 'Write'] as const) {
        metrics[metricId(kind.toLowerCase(), indexName)] = table.metric(`${kind}ThrottleEvents`, {
          statistic: 'Sum',
          period: PERIOD,
          dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: indexName },
        });
      }
    }
    return metrics;
  }

  /** One alarm that notifies the topic on ALARM and on OK; missing data (no traffic) is not breaching. */
  private addAlarm(id: string, spec: AlarmSpec): Alarm {
    const alarm = new Alarm(this, `${id}Alarm`, {
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: spec.description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  private createDashboard(
    props: ObservabilityProps,
    table: { throttledRequests: IMetric; throttleEvents: IMetric; systemErrors: IMetric },
  ): Dashboard {
    const { stage, authorizer, routeFunctions } = props;
    const fn = authorizer.lambdaFunction;
    const sum = { statistic: 'Sum', period: PERIOD } as const;
    const percentile = (statistic: string) => ({ statistic, period: PERIOD, label: statistic });
    const graph = (title: string, left: IMetric[], width = 6) => new GraphWidget({ title, left, width, height: 6 });
    const heading = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });

    // Dashboard names are unique per account across regions: the region keeps two deployments apart.
    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${Stack.of(this).stackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });

    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 }));

    dashboard.addWidgets(heading('## API'));
    dashboard.addWidgets(
      graph('Requests', [stage.metricCount({ ...sum, label: 'Requests' })]),
      graph('4XX and 5XX', [
        stage.metricClientError({ ...sum, label: '4XX' }),
        stage.metricServerError({ ...sum, label: '5XX' }),
      ]),
      graph('Latency', [stage.metricLatency(percentile('p50')), stage.metricLatency(percentile('p99'))]),
      graph('Integration latency', [
        stage.metricIntegrationLatency(percentile('p50')),
        stage.metricIntegrationLatency(percentile('p99')),
      ]),
    );

    dashboard.addWidgets(heading('## Authorizer'));
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Authorizer decisions',
        left: AUTHORIZER_DECISION_OUTCOMES.map(
          (outcome) =>
            new Metric({
              namespace: METRICS_NAMESPACE,
              metricName: AUTHORIZER_DECISION_METRIC,
              dimensionsMap: { ...serviceDimension, [AUTHORIZER_DECISION_DIMENSION]: outcome },
              label: outcome,
              ...sum,
            }),
        ),
        stacked: true,
        width: 6,
        height: 6,
      }),
      graph('Authorizer invocations and errors', [
        fn.metricInvocations({ ...sum, label: 'Invocations' }),
        fn.metricErrors({ ...sum, label: 'Errors (includes every generic 401)' }),
        fn.metricThrottles({ ...sum, label: 'Throttles' }),
      ]),
      graph('Authorizer duration', [fn.metricDuration(percentile('p50')), fn.metricDuration(percentile('p99'))]),
      graph('Authorizer failures (503)', [this.authorizerFailures]),
    );

    dashboard.addWidgets(heading('## Audit'));
    dashboard.addWidgets(
      graph('Token denials per minute', [this.denialEvents], 12),
      graph(
        'Audit batches not delivered (dead-letter queue)',
        [
          props.auditDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
            statistic: 'Maximum',
            period: PERIOD,
            label: 'Messages in the audit dead-letter queue',
          }),
        ],
        12,
      ),
    );

    dashboard.addWidgets(heading('## Route functions'));
    dashboard.addWidgets(
      graph(
        'Invocations',
        routeFunctions.map((route) => route.lambdaFunction.metricInvocations({ ...sum, label: route.name })),
      ),
      graph(
        'Unhandled errors',
        routeFunctions.map((route) => route.lambdaFunction.metricErrors({ ...sum, label: route.name })),
      ),
      graph(
        'Duration p99',
        routeFunctions.map((route) =>
          route.lambdaFunction.metricDuration({ statistic: 'p99', period: PERIOD, label: route.name }),
        ),
      ),
      graph(
        'Throttles',
        routeFunctions.map((route) => route.lambdaFunction.metricThrottles({ ...sum, label: route.name })),
      ),
    );
    dashboard.addWidgets(
      graph(
        'State changes',
        routes.flatMap((route) =>
          route.successMetric
            ? [
                new Metric({
                  namespace: METRICS_NAMESPACE,
                  metricName: route.successMetric,
                  dimensionsMap: serviceDimension,
                  ...sum,
                  label: route.successMetric,
                }),
              ]
            : [],
        ),
        12,
      ),
      graph(
        'Cold starts',
        [authorizer, ...routeFunctions].map(
          (fn) =>
            new Metric({
              namespace: METRICS_NAMESPACE,
              metricName: COLD_START_METRIC,
              dimensionsMap: { ...serviceDimension, [COLD_START_DIMENSION]: fn.name },
              ...sum,
              label: fn.name,
            }),
        ),
        12,
      ),
    );

    const tableResource = props.table;
    dashboard.addWidgets(heading('## Table'));
    dashboard.addWidgets(
      graph('Consumed capacity', [
        tableResource.metricConsumedReadCapacityUnits({ ...sum, label: 'Read (RCU)' }),
        tableResource.metricConsumedWriteCapacityUnits({ ...sum, label: 'Write (WCU)' }),
        ...props.indexNames.flatMap((indexName) =>
          (['Read', 'Write'] as const).map((kind) =>
            tableResource.metric(`Consumed${kind}CapacityUnits`, {
              ...sum,
              label: `${indexName} ${kind === 'Read' ? 'RCU' : 'WCU'}`,
              dimensionsMap: { TableName: tableResource.tableName, GlobalSecondaryIndexName: indexName },
            }),
          ),
        ),
      ]),
      graph('Throttles and system errors', [table.throttledRequests, table.throttleEvents, table.systemErrors]),
      graph(
        'Request latency (average)',
        TABLE_OPERATIONS.map((operation) =>
          tableResource.metricSuccessfulRequestLatency({
            dimensionsMap: { Operation: operation },
            statistic: 'Average',
            period: PERIOD,
            label: operation,
          }),
        ),
        12,
      ),
    );

    if (props.webAcl) {
      const { webAclMetricName, ruleMetricNames } = props.webAcl;
      const wafMetric = (metricName: string, rule: string) =>
        new Metric({
          namespace: 'AWS/WAFV2',
          metricName,
          dimensionsMap: { WebACL: webAclMetricName, Region: Aws.REGION, Rule: rule },
          label: rule === 'ALL' ? metricName : `${rule} ${metricName}`,
          ...sum,
        });
      dashboard.addWidgets(heading('## WAF'));
      dashboard.addWidgets(
        graph('Web ACL', [wafMetric('AllowedRequests', 'ALL'), wafMetric('BlockedRequests', 'ALL')], 12),
        graph(
          'Blocked by rule',
          ruleMetricNames.map((rule) => wafMetric('BlockedRequests', rule)),
          12,
        ),
      );
    }
    return dashboard;
  }
}
