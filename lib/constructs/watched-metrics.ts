import {
  AUDIT_DENIAL_EVENTS_METRIC,
  AUTHORIZER_FAILURES_METRIC,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
  SERVICE_NAME,
} from '@contract/service-metrics';
import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** A function to watch, with the name shown in alarm descriptions and on the dashboard. */
export interface WatchedFunction {
  /** Short name, e.g. the route's handler (`create-token`) or `authorizer`. */
  readonly name: string;
  /** The function. */
  readonly lambdaFunction: IFunction;
}

/**
 * Every alarm evaluates 5-minute periods, and the dashboard graphs them: API Gateway, Lambda and
 * DynamoDB publish 1-minute data, and 5 minutes smooths single slow or failed requests without delaying
 * a page by much.
 */
export const PERIOD = Duration.minutes(5);

/**
 * Denials must page within minutes, so their alarm reads 1-minute periods (the authorizer's embedded
 * metrics have 1-minute resolution).
 */
const DENIAL_PERIOD = Duration.minutes(1);

/**
 * The DynamoDB operations the service calls (ThrottledRequests and SystemErrors carry an `Operation`
 * dimension and have no table-wide total). The conditional checks and puts of a transaction are
 * reported under TransactWriteItems. An alarm's math expression may use at most 10 metrics.
 */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.TRANSACT_WRITE_ITEMS,
] as const;

/** `get-item` style ids are not valid metric ids in math expressions: `getItem`. */
export const metricId = (prefix: string, name: string): string =>
  `${prefix}${name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_match, _separator, letter: string) => letter.toUpperCase())}`;

/** The dimension Powertools Metrics gives every metric the functions publish: part of each metric's identity. */
export const serviceDimension = { [SERVICE_DIMENSION]: SERVICE_NAME };

/** Sum of sparse metrics (DynamoDB publishes throttles and errors only when they happen): FILL each with 0. */
const sumOf = (label: string, metrics: Record<string, IMetric>): MathExpression =>
  new MathExpression({
    expression: Object.keys(metrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics: metrics,
    label,
    period: PERIOD,
  });

/** Read and write throttle events of the table and of each index, by metric id. */
const throttleEventMetrics = (table: Table, indexNames: readonly string[]): Record<string, IMetric> => {
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
};

/** The metrics an alarm watches and the dashboard graphs too, built once so both read the same. */
export interface WatchedMetrics {
  /** Requests the authorizer failed to judge (503), counted from the access log by the alarms' metric filter. */
  readonly authorizerFailures: Metric;
  /** `token.denied` events per minute, as the authorizer publishes them. */
  readonly denialEvents: Metric;
  /** Throttled DynamoDB requests, summed over {@link TABLE_OPERATIONS}. */
  readonly throttledRequests: IMetric;
  /** Read and write throttle events of the table and each of its indexes. */
  readonly throttleEvents: IMetric;
  /** DynamoDB internal errors (HTTP 500), summed over {@link TABLE_OPERATIONS}. */
  readonly systemErrors: IMetric;
}

/** The {@link WatchedMetrics} of the service's table and its global secondary indexes. */
export const watchedMetrics = (table: Table, indexNames: readonly string[]): WatchedMetrics => ({
  authorizerFailures: new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: AUTHORIZER_FAILURES_METRIC,
    statistic: 'Sum',
    period: PERIOD,
    label: 'Authorizer failures (503)',
  }),
  denialEvents: new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: AUDIT_DENIAL_EVENTS_METRIC,
    dimensionsMap: serviceDimension,
    statistic: 'Sum',
    period: DENIAL_PERIOD,
    label: 'Token denials (token.denied events)',
  }),
  throttledRequests: sumOf(
    'Throttled requests',
    Object.fromEntries(
      TABLE_OPERATIONS.map((operation) => [
        metricId('throttled', operation),
        table.metricThrottledRequestsForOperation(operation, { statistic: 'Sum', period: PERIOD }),
      ]),
    ),
  ),
  throttleEvents: sumOf('Throttle events (table and indexes)', throttleEventMetrics(table, indexNames)),
  systemErrors: sumOf(
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
  ),
});
