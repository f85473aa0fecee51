import { routes } from '@contract/routes';
import {
  AUTHORIZER_DECISION_DIMENSION,
  AUTHORIZER_DECISION_METRIC,
  AUTHORIZER_DECISION_OUTCOMES,
  COLD_START_DIMENSION,
  COLD_START_METRIC,
  METRICS_NAMESPACE,
} from '@contract/service-metrics';
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  PERIOD,
  serviceDimension,
  TABLE_OPERATIONS,
  type WatchedFunction,
  type WatchedMetrics,
} from './watched-metrics';

/** The web ACL's metric names, for the dashboard (see `WebAcl`). */
export interface WebAclMetrics {
  /** `WebACL` dimension: the web ACL's metric name. */
  readonly webAclMetricName: string;
  /** `Rule` dimension of each rule that blocks (the "Blocked by rule" graph): its metric name. */
  readonly ruleMetricNames: readonly string[];
}

/** What the {@link OperationsDashboard} shows. */
export interface OperationsDashboardProps {
  /** The alarms, shown first by state. */
  readonly alarms: readonly Alarm[];
  /** The metrics the alarms watch too. */
  readonly metrics: WatchedMetrics;
  /** The API stage (ApiName + Stage dimensions). */
  readonly stage: Stage;
  /** The REQUEST authorizer's function. */
  readonly authorizer: WatchedFunction;
  /** The route functions. */
  readonly routeFunctions: readonly WatchedFunction[];
  /** The service's table. */
  readonly table: Table;
  /** Its global secondary indexes, whose consumed capacity is graphed too. */
  readonly indexNames: readonly string[];
  /** The web ACL in front of the stage, if any: adds its request counts. */
  readonly webAcl?: WebAclMetrics;
  /** The audit pipe's dead-letter queue. */
  readonly auditDeadLetterQueue: IQueue;
}

/**
 * The service's CloudWatch dashboard, for whoever is on call: the alarms' states, then the API, the
 * authorizer's decisions, the audit pipe, the route functions, the table and, with `waf=true`, the web
 * ACL. Not the web dashboard (`DashboardSite`).
 */
export class OperationsDashboard extends Dashboard {
  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    // Dashboard names are unique per account across regions: the region keeps two deployments apart.
    super(scope, id, {
      dashboardName: `${Stack.of(scope).stackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    const { stage, authorizer, routeFunctions, metrics, table } = props;
    const fn = authorizer.lambdaFunction;
    const sum = { statistic: 'Sum', period: PERIOD } as const;
    const percentile = (statistic: string) => ({ statistic, period: PERIOD, label: statistic });
    const graph = (title: string, left: IMetric[], width = 6) => new GraphWidget({ title, left, width, height: 6 });
    const heading = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });

    this.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 }));

    this.addWidgets(heading('## API'));
    this.addWidgets(
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

    this.addWidgets(heading('## Authorizer'));
    this.addWidgets(
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
      graph('Authorizer failures (503)', [metrics.authorizerFailures]),
    );

    this.addWidgets(heading('## Audit'));
    this.addWidgets(
      graph('Token denials per minute', [metrics.denialEvents], 12),
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

    this.addWidgets(heading('## Route functions'));
    this.addWidgets(
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
    this.addWidgets(
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

    this.addWidgets(heading('## Table'));
    this.addWidgets(
      graph('Consumed capacity', [
        table.metricConsumedReadCapacityUnits({ ...sum, label: 'Read (RCU)' }),
        table.metricConsumedWriteCapacityUnits({ ...sum, label: 'Write (WCU)' }),
        ...props.indexNames.flatMap((indexName) =>
          (['Read', 'Write'] as const).map((kind) =>
            table.metric(`Consumed${kind}CapacityUnits`, {
              ...sum,
              label: `${indexName} ${kind === 'Read' ? 'RCU' : 'WCU'}`,
              dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: indexName },
            }),
          ),
        ),
      ]),
      graph('Throttles and system errors', [metrics.throttledRequests, metrics.throttleEvents, metrics.systemErrors]),
      graph(
        'Request latency (average)',
        TABLE_OPERATIONS.map((operation) =>
          table.metricSuccessfulRequestLatency({
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
      this.addWidgets(heading('## WAF'));
      this.addWidgets(
        graph('Web ACL', [wafMetric('AllowedRequests', 'ALL'), wafMetric('BlockedRequests', 'ALL')], 12),
        graph(
          'Blocked by rule',
          ruleMetricNames.map((rule) => wafMetric('BlockedRequests', rule)),
          12,
        ),
      );
    }
  }
}
