import { AUTHORIZER_FAILURES_METRIC, METRICS_NAMESPACE } from '@contract/service-metrics';
import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { metricId, PERIOD, type WatchedFunction, type WatchedMetrics } from './watched-metrics';

/** What {@link createAlarms} watches, and whom it tells. */
export interface AlarmsProps {
  /** The topic every alarm notifies, on ALARM and on OK. */
  readonly topic: ITopic;
  /** The metrics the dashboard graphs too. */
  readonly metrics: WatchedMetrics;
  /** The API stage whose metrics are watched (ApiName + Stage dimensions). */
  readonly stage: Stage;
  /** The stage's JSON access log: authorizer failures are counted from its `errorType` field. */
  readonly accessLogs: ILogGroup;
  /** The REQUEST authorizer's function. */
  readonly authorizer: WatchedFunction;
  /** The route functions. */
  readonly routeFunctions: readonly WatchedFunction[];
  /** The audit pipe's dead-letter queue: a message there is a batch of audit events the bus never got. */
  readonly auditDeadLetterQueue: IQueue;
  /** The expiry-notice schedule's and function's dead-letter queue: a message there is a run that failed every attempt. */
  readonly expiryNoticeDeadLetterQueue: IQueue;
  /** The secret-version cleanup's dead-letter queue: a message there is a stream batch it failed to clean up after. */
  readonly secretVersionCleanupDeadLetterQueue: IQueue;
  /** The webhook deliveries' dead-letter queue: a message there is an event whose last attempt failed for some webhook. */
  readonly webhookDeadLetterQueue: IQueue;
}

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
/** Stream batches the secret-version cleanup gave up on: each leaves ended versions of a deleted secret behind. */
const SECRET_CLEANUP_FAILED_BATCHES = 1;

/** What one alarm watches. */
interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm?: number;
  readonly description: string;
}

const throttlesSpec = (fn: WatchedFunction): AlarmSpec => ({
  metric: fn.lambdaFunction.metricThrottles({ statistic: 'Sum', period: PERIOD }),
  threshold: FUNCTION_THROTTLES,
  evaluationPeriods: 1,
  description: `Lambda throttled the ${fn.name} function in the last 5 minutes: each throttle is a failed request. The account's concurrency limit is reached; raise it or reserve concurrency.`,
});

/**
 * The alarms on the API's 5XX rate, the authorizer, the audit pipe, the expiry notices, every route
 * function and the table, created in `scope` as `<name>Alarm`, each notifying the topic on ALARM and on
 * OK; and the metric filter (`AuthorizerFailuresFilter`) that counts authorizer failures from the access
 * log. Returns the alarms in creation order.
 */
export const createAlarms = (scope: Construct, props: AlarmsProps): Alarm[] => {
  const { stage, authorizer, routeFunctions, metrics } = props;
  const action = new SnsAction(props.topic);
  const alarms: Alarm[] = [];
  /**
   * One alarm that notifies the topic on ALARM and on OK; missing data (no traffic) is not breaching.
   * It is created in `alarmScope` (default `scope`): a route function's alarms live in its own nested stack.
   */
  const addAlarm = (id: string, spec: AlarmSpec, alarmScope: Construct = scope): void => {
    const alarm = new Alarm(alarmScope, `${id}Alarm`, {
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: spec.description,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    alarms.push(alarm);
  };

  new MetricFilter(scope, 'AuthorizerFailuresFilter', {
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

  // API
  addAlarm('Api5xxRate', {
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
  addAlarm('AuthorizerFailures', {
    metric: metrics.authorizerFailures,
    threshold: AUTHORIZER_FAILURES,
    evaluationPeriods: 1,
    description: `At least ${AUTHORIZER_FAILURES} requests in 5 minutes answered 503 because the authorizer failed (crash, timeout, DynamoDB or the identity provider's JWKS unreachable). Counted from the access log's errorType; see the authorizer's log.`,
  });
  addAlarm('AuthorizerErrorRate', {
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
  addAlarm('AuthorizerThrottles', throttlesSpec(authorizer));

  // Audit
  addAlarm('TokenDenialEvents', {
    metric: metrics.denialEvents,
    threshold: DENIAL_EVENTS_PER_MINUTE,
    evaluationPeriods: 1,
    description: `At least ${DENIAL_EVENTS_PER_MINUTE} existing tokens were refused (expired, another address or a missing scope) in one minute: a token tried from where it does not belong, or a client looping on a refusal. Find the tokens in the token.denied events (audit trail, or the audit bus) and revoke what is not yours.`,
  });
  addAlarm('AuditDeliveryFailures', {
    metric: props.auditDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: PERIOD,
    }),
    threshold: AUDIT_UNDELIVERED_BATCHES,
    evaluationPeriods: 1,
    description: `The audit pipe gave up on a batch of stream records (after its retries, or an hour): those audit events never reached the event bus. Each message in the audit dead-letter queue (AuditDeadLetterQueueUrl) names the shard and sequence numbers; the events are still in the table (the audit trail routes) and the stream keeps the records 24 hours. Put them on the bus again, then delete the message.`,
  });

  addAlarm('ExpiryNoticeFailures', {
    metric: props.expiryNoticeDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: PERIOD,
    }),
    threshold: EXPIRY_NOTICE_FAILED_RUNS,
    evaluationPeriods: 1,
    description: `An hourly expiry-notice run failed every attempt (Scheduler could not invoke the function, or the function failed three times); its message is in the expiry-notice dead-letter queue (ExpiryNoticeDeadLetterQueueUrl). The next run sends whatever is still due, so nothing is lost while runs succeed again; see the function's log for the cause, then delete the message.`,
  });

  addAlarm('SecretVersionCleanupFailures', {
    metric: props.secretVersionCleanupDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: PERIOD,
    }),
    threshold: SECRET_CLEANUP_FAILED_BATCHES,
    evaluationPeriods: 1,
    description: `The secret-version cleanup gave up on a batch of stream records (TTL removals of deleted secrets' heads) after its retries: the versions of those secrets' ended lives stay in the table (never answered, only stored). Its message in the dead-letter queue (SecretVersionCleanupDeadLetterQueueUrl) names the shard and sequence numbers; see the function's log for the cause and the secrets named, then delete the message.`,
  });

  addAlarm('WebhookDeliveryFailures', {
    metric: props.webhookDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: PERIOD,
    }),
    threshold: 1,
    evaluationPeriods: 1,
    description: `An event was not delivered to a webhook after its ten attempts over 24 hours (the deliveries show it failed), or EventBridge could not queue it; its message is in the webhook dead-letter queue. Tell the project's owners their receiver refuses or is unreachable; once it is fixed, move the messages back to the first attempt's queue (docs/operations.md, "Webhooks"), or delete them.`,
  });

  // Route functions, each function's alarms beside it, in its domain's stack
  for (const fn of routeFunctions) {
    const name = metricId('', fn.name);
    const functionStack = Stack.of(fn.lambdaFunction);
    addAlarm(
      `${name}Errors`,
      {
        metric: fn.lambdaFunction.metricErrors({ statistic: 'Sum', period: PERIOD }),
        threshold: ROUTE_FUNCTION_ERRORS,
        evaluationPeriods: 1,
        description: `The ${fn.name} function ended an invocation with an unhandled error (crash, timeout or out of memory) in the last 5 minutes; the handler answers every expected error itself, so this is a bug or an outage. See its log.`,
      },
      functionStack,
    );
    addAlarm(`${name}Throttles`, throttlesSpec(fn), functionStack);
  }

  // Table
  addAlarm('TableThrottledRequests', {
    metric: metrics.throttledRequests,
    threshold: TABLE_THROTTLES,
    evaluationPeriods: 1,
    description: `At least ${TABLE_THROTTLES} DynamoDB requests were throttled in 5 minutes (an on-demand limit or a hot key such as one token used by many callers). The SDK retries; what still fails is answered 503.`,
  });
  addAlarm('TableThrottleEvents', {
    metric: metrics.throttleEvents,
    threshold: TABLE_THROTTLES,
    evaluationPeriods: 1,
    description: `At least ${TABLE_THROTTLES} read or write throttle events on the table or its indexes in 5 minutes: on-demand tables throttle at their maximum throughput, per partition, or when an index cannot keep up with writes.`,
  });
  addAlarm('TableSystemErrors', {
    metric: metrics.systemErrors,
    threshold: TABLE_SYSTEM_ERRORS,
    evaluationPeriods: 1,
    description: `At least ${TABLE_SYSTEM_ERRORS} DynamoDB requests failed with an internal error (HTTP 500) in 5 minutes. The SDK retries; what still fails is answered 503. Check the AWS Health Dashboard.`,
  });

  return alarms;
};
