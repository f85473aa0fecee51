import { ErrorText } from '@contract/errors';
import { routes } from '@contract/routes';
import { AUDIT_DENIAL_EVENTS_METRIC, METRICS_NAMESPACE } from '@contract/service-metrics';
import { tableSchema } from '@contract/table-schema';
import { type Synthesized, synthesize } from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of the guard rails: stage access log and throttling, alarms and their topic, the
// dashboard, and the WAF web ACL (on by default, off with waf=false). Synthesized without bundling (the functions' code does not
// matter here), once per context variant.

type Json = Record<string, unknown>;

const ALARM_EMAIL = 'ops@example.com';
const OPERATIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'TransactWriteItems'];
const INDEXES = tableSchema.globalSecondaryIndexes.map((index) => index.indexName);
const OUTCOMES = ['allowed', 'invalid', 'expired', 'wrong_ip', 'scope', 'resource'];

const pascalCase = (name: string): string =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

let plain: Synthesized;
let guarded: Synthesized;

beforeAll(() => {
  plain = synthesize({ context: { waf: 'false' } });
  guarded = synthesize({
    context: {
      waf: 'true',
      wafRateLimit: '500',
      rateLimitPerMinute: '120',
      alarmEmail: ALARM_EMAIL,
      throttlingRateLimit: '20',
      throttlingBurstLimit: '40',
    },
  });
});

const logicalId = (synthesized: Synthesized, construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const resourcesOf = (synthesized: Synthesized, type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;
const propertiesOf = (synthesized: Synthesized, type: string, id: string): Json => {
  const resource = resourcesOf(synthesized, type)[id];
  if (!resource) throw new Error(`No ${type} ${id}`);
  return resource.Properties as Json;
};
const onlyResource = (synthesized: Synthesized, type: string): Json => {
  const all = Object.values(resourcesOf(synthesized, type));
  expect(all).toHaveLength(1);
  return (all[0] as Json).Properties as Json;
};

/** A CloudFormation Fn::Join as one string, each token replaced by `TOKEN`. */
const joined = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const [separator, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(separator);
};

/** One metric an alarm reads: namespace, name, dimensions (tokens as JSON), statistic, period. */
interface WatchedMetric {
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: Record<string, unknown>;
  readonly stat: string;
  readonly period: number;
}

interface CfnDimension {
  readonly Name: string;
  readonly Value: unknown;
}
const dimensionsOf = (dimensions: CfnDimension[] | undefined) =>
  Object.fromEntries((dimensions ?? []).map((dimension) => [dimension.Name, dimension.Value]));

/** The alarm's properties and the metrics it reads, whether it watches one metric or a math expression. */
const alarmOf = (synthesized: Synthesized, id: string) => {
  const construct = synthesized.stack.observability.alarms.find((alarm) => alarm.node.id === `${id}Alarm`);
  if (!construct) throw new Error(`No alarm ${id}Alarm`);
  const properties = propertiesOf(synthesized, 'AWS::CloudWatch::Alarm', logicalId(synthesized, construct));
  const queries = (properties.Metrics ?? []) as {
    Id: string;
    Expression?: string;
    MetricStat?: {
      Metric: { Namespace: string; MetricName: string; Dimensions: CfnDimension[] };
      Stat: string;
      Period: number;
    };
  }[];
  const metrics: WatchedMetric[] = queries.length
    ? queries.flatMap((query) =>
        query.MetricStat
          ? [
              {
                namespace: query.MetricStat.Metric.Namespace,
                metricName: query.MetricStat.Metric.MetricName,
                dimensions: dimensionsOf(query.MetricStat.Metric.Dimensions),
                stat: query.MetricStat.Stat,
                period: query.MetricStat.Period,
              },
            ]
          : [],
      )
    : [
        {
          namespace: properties.Namespace as string,
          metricName: properties.MetricName as string,
          dimensions: dimensionsOf(properties.Dimensions as CfnDimension[]),
          stat: properties.Statistic as string,
          period: properties.Period as number,
        },
      ];
  const expression = queries.find((query) => query.Expression !== undefined)?.Expression;
  return { properties, metrics, expression };
};

const ref = (synthesized: Synthesized, construct: IConstruct) => ({ Ref: logicalId(synthesized, construct) });
const authorizerFunction = (synthesized: Synthesized) => synthesized.stack.serviceApi.authorizerFunction.lambdaFunction;
const routeFunction = (synthesized: Synthesized, handler: string) => {
  const fn = synthesized.stack.serviceApi.routeFunctions.get(handler);
  if (!fn) throw new Error(`No function for ${handler}`);
  return fn.lambdaFunction;
};

describe('stage', () => {
  it('writes a JSON access log with source IP, status, integration and authorizer latency and the error type', () => {
    const stage = onlyResource(plain, 'AWS::ApiGateway::Stage');
    const format = JSON.parse((stage.AccessLogSetting as Json).Format as string) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      sourceIp: '$context.identity.sourceIp',
      status: '$context.status',
      integrationLatency: '$context.integrationLatency',
      authorizerLatency: '$context.authorizer.latency',
      authorizerIntegrationLatency: '$context.authorizer.integrationLatency',
      authorizerStatus: '$context.authorizer.status',
      errorType: '$context.error.responseType',
      wafResponseCode: '$context.wafResponseCode',
    });
    // Quoted, so a `-` for a missing value keeps every line valid JSON.
    for (const value of Object.values(format)) expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
  });

  it('throttles with the configured rate and burst', () => {
    const stage = onlyResource(guarded, 'AWS::ApiGateway::Stage');
    expect(stage.MethodSettings).toEqual([
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: 20,
        ThrottlingBurstLimit: 40,
      }),
    ]);
  });

  it('names the API after the stack, since API Gateway keys its metrics by that name', () => {
    expect(onlyResource(plain, 'AWS::ApiGateway::RestApi').Name).toBe('SecretsService');
  });
});

describe('alarms', () => {
  const FUNCTION_ALARMS = routes.flatMap((route) => [
    `${pascalCase(route.handler)}Errors`,
    `${pascalCase(route.handler)}Throttles`,
  ]);
  const ALARMS = [
    'Api5xxRate',
    'AuthorizerFailures',
    'AuthorizerErrorRate',
    'AuthorizerThrottles',
    'TokenDenialEvents',
    'AuditDeliveryFailures',
    'ExpiryNoticeFailures',
    'SecretVersionCleanupFailures',
    'WebhookDeliveryFailures',
    ...FUNCTION_ALARMS,
    'TableThrottledRequests',
    'TableThrottleEvents',
    'TableSystemErrors',
  ];

  it('has exactly the expected alarms', () => {
    plain.template.resourceCountIs('AWS::CloudWatch::Alarm', ALARMS.length);
    expect(plain.stack.observability.alarms.map((alarm) => alarm.node.id).sort()).toEqual(
      ALARMS.map((id) => `${id}Alarm`).sort(),
    );
  });

  it.each(ALARMS)('%s notifies the topic on ALARM and OK, treats missing data as fine and says what it means', (id) => {
    const { properties, metrics } = alarmOf(plain, id);
    const topic = ref(plain, plain.stack.observability.topic);
    expect(properties).toMatchObject({
      AlarmActions: [topic],
      OKActions: [topic],
      TreatMissingData: 'notBreaching',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect((properties.AlarmDescription as string).length).toBeGreaterThan(60);
    // CloudWatch's hard limit for a metric math alarm.
    expect(metrics.length).toBeLessThanOrEqual(10);
    // Five minutes, but for denials, which page within the minute.
    for (const metric of metrics) expect(metric.period).toBe(id === 'TokenDenialEvents' ? 60 : 300);
  });

  it('alarms on 10 token denials (token.denied events) in one minute, from the metric the authorizer publishes', () => {
    const { properties, metrics } = alarmOf(plain, 'TokenDenialEvents');
    expect(properties).toMatchObject({
      Threshold: 10,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // No dimension: the authorizer publishes it in a directive of its own (contract/service-metrics.ts).
    expect(metrics).toEqual([
      {
        namespace: 'SecretsService',
        metricName: 'TokenDenialEvents',
        dimensions: { service: 'secrets-service' },
        stat: 'Sum',
        period: 60,
      },
    ]);
    expect(AUDIT_DENIAL_EVENTS_METRIC).toBe('TokenDenialEvents');
    expect(METRICS_NAMESPACE).toBe('SecretsService');
  });

  it('alarms as soon as a batch of audit events lands in the audit pipe’s dead-letter queue', () => {
    const { properties, metrics } = alarmOf(plain, 'AuditDeliveryFailures');
    expect(properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
    expect(metrics).toEqual([
      {
        namespace: 'AWS/SQS',
        metricName: 'ApproximateNumberOfMessagesVisible',
        dimensions: {
          QueueName: { 'Fn::GetAtt': [logicalId(plain, plain.stack.auditStream.deadLetterQueue), 'QueueName'] },
        },
        stat: 'Maximum',
        period: 300,
      },
    ]);
  });

  it('alarms on any expiry-notice run that failed every attempt, in its dead-letter queue', () => {
    const { properties, metrics } = alarmOf(plain, 'ExpiryNoticeFailures');
    expect(properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
    expect(metrics).toEqual([
      {
        namespace: 'AWS/SQS',
        metricName: 'ApproximateNumberOfMessagesVisible',
        dimensions: {
          QueueName: { 'Fn::GetAtt': [logicalId(plain, plain.stack.expiryNotices.deadLetterQueue), 'QueueName'] },
        },
        stat: 'Maximum',
        period: 300,
      },
    ]);
  });

  it("alarms on the API's 5XX rate: 5% of at least 10 requests, in 2 of 3 five-minute periods", () => {
    const { properties, metrics, expression } = alarmOf(plain, 'Api5xxRate');
    expect(properties).toMatchObject({ Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(expression).toBe('IF(requests >= 10, 100 * errors / requests, 0)');
    const dimensions = { ApiName: 'SecretsService', Stage: ref(plain, plain.stack.serviceApi.api.deploymentStage) };
    expect(metrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ namespace: 'AWS/ApiGateway', metricName: '5XXError', stat: 'Sum', dimensions }),
        expect.objectContaining({ namespace: 'AWS/ApiGateway', metricName: 'Count', stat: 'Sum', dimensions }),
      ]),
    );
  });

  it('alarms on 5 authorizer failures in 5 minutes, counted from the access log', () => {
    const { properties, metrics } = alarmOf(plain, 'AuthorizerFailures');
    expect(properties).toMatchObject({ Threshold: 5, EvaluationPeriods: 1 });
    expect(metrics).toEqual([
      { namespace: 'SecretsService', metricName: 'AuthorizerFailures', dimensions: {}, stat: 'Sum', period: 300 },
    ]);
    const filter = onlyResource(plain, 'AWS::Logs::MetricFilter');
    expect(filter).toEqual({
      LogGroupName: ref(plain, plain.stack.serviceApi.accessLogs),
      FilterPattern: '{ ($.errorType = "AUTHORIZER_FAILURE") || ($.errorType = "AUTHORIZER_CONFIGURATION_ERROR") }',
      MetricTransformations: [
        { MetricNamespace: 'SecretsService', MetricName: 'AuthorizerFailures', MetricValue: '1' },
      ],
    });
  });

  it('alarms when most authorizer invocations are errors (each generic 401 is one), not on a single one', () => {
    const { properties, metrics, expression } = alarmOf(plain, 'AuthorizerErrorRate');
    expect(properties).toMatchObject({ Threshold: 50, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(expression).toBe('IF(invocations >= 20, 100 * errors / invocations, 0)');
    const dimensions = { FunctionName: ref(plain, authorizerFunction(plain)) };
    expect(metrics.map((metric) => [metric.namespace, metric.metricName, metric.stat, metric.dimensions])).toEqual(
      expect.arrayContaining([
        ['AWS/Lambda', 'Errors', 'Sum', dimensions],
        ['AWS/Lambda', 'Invocations', 'Sum', dimensions],
      ]),
    );
  });

  it.each(['authorizer', ...routes.map((route) => route.handler)])(
    'alarms on any throttle of the %s function',
    (name) => {
      const id = name === 'authorizer' ? 'AuthorizerThrottles' : `${pascalCase(name)}Throttles`;
      const fn = name === 'authorizer' ? authorizerFunction(plain) : routeFunction(plain, name);
      const { properties, metrics } = alarmOf(plain, id);
      expect(properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
      expect(metrics).toEqual([
        {
          namespace: 'AWS/Lambda',
          metricName: 'Throttles',
          dimensions: { FunctionName: ref(plain, fn) },
          stat: 'Sum',
          period: 300,
        },
      ]);
    },
  );

  it.each(routes.map((route) => route.handler))('alarms on any unhandled error of the %s function', (handler) => {
    const { properties, metrics } = alarmOf(plain, `${pascalCase(handler)}Errors`);
    expect(properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
    expect(metrics).toEqual([
      {
        namespace: 'AWS/Lambda',
        metricName: 'Errors',
        dimensions: { FunctionName: ref(plain, routeFunction(plain, handler)) },
        stat: 'Sum',
        period: 300,
      },
    ]);
  });

  it.each([
    ['TableThrottledRequests', 'ThrottledRequests'],
    ['TableSystemErrors', 'SystemErrors'],
  ])('%s sums %s over every operation the service calls, filling gaps with 0, at 5 in 5 minutes', (id, metricName) => {
    const { properties, metrics, expression } = alarmOf(plain, id);
    expect(properties).toMatchObject({ Threshold: 5, EvaluationPeriods: 1 });
    const table = ref(plain, plain.stack.dataStore.table);
    expect(metrics).toEqual(
      OPERATIONS.map((operation) => ({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensions: { TableName: table, Operation: operation },
        stat: 'Sum',
        period: 300,
      })),
    );
    expect(expression?.match(/FILL\(\w+, 0\)/g)).toHaveLength(OPERATIONS.length);
  });

  it('alarms on 5 read or write throttle events on the table or its indexes in 5 minutes (on-demand limits)', () => {
    const { properties, metrics, expression } = alarmOf(plain, 'TableThrottleEvents');
    expect(properties).toMatchObject({ Threshold: 5, EvaluationPeriods: 1 });
    const table = ref(plain, plain.stack.dataStore.table);
    expect(metrics.map((metric) => [metric.metricName, metric.dimensions])).toEqual([
      ['ReadThrottleEvents', { TableName: table }],
      ['WriteThrottleEvents', { TableName: table }],
      ...INDEXES.flatMap((index) => [
        ['ReadThrottleEvents', { TableName: table, GlobalSecondaryIndexName: index }],
        ['WriteThrottleEvents', { TableName: table, GlobalSecondaryIndexName: index }],
      ]),
    ]);
    expect(expression?.match(/FILL\(\w+, 0\)/g)).toHaveLength(2 + 2 * INDEXES.length);
  });
});

describe('alarm topic', () => {
  it('is encrypted with a rotated customer managed key that CloudWatch and EventBridge may use', () => {
    const topic = onlyResource(plain, 'AWS::SNS::Topic');
    const keyId = logicalId(plain, plain.stack.observability.node.findChild('AlarmTopicKey'));
    expect(topic.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    const key = propertiesOf(plain, 'AWS::KMS::Key', keyId);
    expect(key.EnableKeyRotation).toBe(true);
    for (const service of ['cloudwatch.amazonaws.com', 'events.amazonaws.com']) {
      expect((key.KeyPolicy as { Statement: unknown[] }).Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: service },
          Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        }),
      );
    }
  });

  it("accepts only TLS publishing, and publishing by this account's alarms and audit bus rules", () => {
    const policy = onlyResource(plain, 'AWS::SNS::TopicPolicy');
    const topic = ref(plain, plain.stack.observability.topic);
    expect(policy.Topics).toEqual([topic]);
    expect((policy.PolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      expect.objectContaining({
        Effect: 'Deny',
        Principal: '*',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: topic,
        Condition: {
          ArnLike: { 'aws:SourceArn': expect.anything() },
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        },
      }),
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: topic,
        Condition: {
          ArnLike: { 'aws:SourceArn': expect.anything() },
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        },
      }),
    ]);
  });

  it('lets in alarms of this account and region, and rules of the audit bus, only', () => {
    const policy = onlyResource(plain, 'AWS::SNS::TopicPolicy');
    const [, alarms, rules] = (policy.PolicyDocument as { Statement: { Condition: { ArnLike: Json } }[] }).Statement;
    expect(joined(alarms?.Condition.ArnLike['aws:SourceArn'])).toBe('arn:TOKEN:cloudwatch:TOKEN:TOKEN:alarm:*');
    const ruleArn = rules?.Condition.ArnLike['aws:SourceArn'] as { 'Fn::Join': [string, unknown[]] };
    expect(joined(ruleArn)).toBe('arn:TOKEN:events:TOKEN:TOKEN:rule/TOKEN/*');
    // The token naming the bus is the audit bus's name.
    expect(ruleArn['Fn::Join'][1]).toContainEqual(ref(plain, plain.stack.auditStream.eventBus));
  });

  it('has no subscription unless alarmEmail is set', () => {
    plain.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes the alarmEmail address', () => {
    guarded.template.resourceCountIs('AWS::SNS::Subscription', 1);
    guarded.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: ALARM_EMAIL,
      TopicArn: ref(guarded, guarded.stack.observability.topic),
    });
  });

  it('is an output', () => {
    expect(plain.template.findOutputs('AlarmTopicArn').AlarmTopicArn?.Value).toEqual(
      ref(plain, plain.stack.observability.topic),
    );
  });
});

/** The dashboard's widgets, parsed from its body with every token as `TOKEN`. */
interface Widget {
  readonly type: string;
  readonly properties: { readonly title?: string; readonly metrics?: unknown[][] };
}
const widgetsOf = (synthesized: Synthesized): Widget[] => {
  const dashboard = onlyResource(synthesized, 'AWS::CloudWatch::Dashboard');
  return (JSON.parse(joined(dashboard.DashboardBody)) as { widgets: Widget[] }).widgets;
};
/** Each graph's metrics as `namespace/name` (plus `dimension=value` of literal dimensions), by title. */
const graphsOf = (synthesized: Synthesized): Map<string, string[]> =>
  new Map(
    widgetsOf(synthesized)
      .filter((widget) => widget.type === 'metric')
      .map((widget) => [
        widget.properties.title ?? '',
        (widget.properties.metrics ?? []).map((metric) => {
          const [namespace, metricName, ...rest] = metric.filter((part) => typeof part === 'string') as string[];
          const dimensions: string[] = [];
          for (let i = 0; i + 1 < rest.length; i += 2) {
            if (rest[i + 1] !== 'TOKEN') dimensions.push(`${rest[i]}=${rest[i + 1]}`);
          }
          return [`${namespace}/${metricName}`, ...dimensions].join(' ');
        }),
      ]),
  );

describe('dashboard', () => {
  it('is one dashboard, named after the stack and region, and an output', () => {
    const dashboard = onlyResource(plain, 'AWS::CloudWatch::Dashboard');
    expect(joined(dashboard.DashboardName)).toBe('SecretsService-TOKEN');
    expect(plain.template.findOutputs('DashboardName').DashboardName?.Value).toEqual(
      ref(plain, plain.stack.observability.dashboard),
    );
  });

  it('shows the state of every alarm', () => {
    const alarms = widgetsOf(plain).filter((widget) => widget.type === 'alarm');
    expect(alarms.map((widget) => (widget.properties as { alarms: string[] }).alarms.length)).toEqual([
      plain.stack.observability.alarms.length,
    ]);
  });

  it('graphs the API: requests, 4XX/5XX, latency p50/p99 and integration latency', () => {
    const graphs = graphsOf(plain);
    expect(graphs.get('Requests')).toEqual(['AWS/ApiGateway/Count ApiName=SecretsService']);
    expect(graphs.get('4XX and 5XX')).toEqual([
      'AWS/ApiGateway/4XXError ApiName=SecretsService',
      'AWS/ApiGateway/5XXError ApiName=SecretsService',
    ]);
    expect(graphs.get('Latency')).toEqual([
      'AWS/ApiGateway/Latency ApiName=SecretsService',
      'AWS/ApiGateway/Latency ApiName=SecretsService',
    ]);
    expect(graphs.get('Integration latency')).toHaveLength(2);
    const body = joined(onlyResource(plain, 'AWS::CloudWatch::Dashboard').DashboardBody);
    expect(body).toContain('"stat":"p50"');
    expect(body).toContain('"stat":"p99"');
  });

  it("graphs the authorizer's decisions by outcome, its invocations, errors, duration and failures", () => {
    const graphs = graphsOf(plain);
    expect(graphs.get('Authorizer decisions')).toEqual(
      OUTCOMES.map((outcome) => `SecretsService/AuthorizerDecision outcome=${outcome} service=secrets-service`),
    );
    expect(graphs.get('Authorizer invocations and errors')).toEqual([
      'AWS/Lambda/Invocations',
      'AWS/Lambda/Errors',
      'AWS/Lambda/Throttles',
    ]);
    expect(graphs.get('Authorizer duration')).toEqual(['AWS/Lambda/Duration', 'AWS/Lambda/Duration']);
    expect(graphs.get('Authorizer failures (503)')).toEqual(['SecretsService/AuthorizerFailures']);
  });

  it('graphs token denials per minute and the audit pipe’s undelivered batches', () => {
    const graphs = graphsOf(plain);
    expect(graphs.get('Token denials per minute')).toEqual([
      'SecretsService/TokenDenialEvents service=secrets-service',
    ]);
    expect(graphs.get('Audit batches not delivered (dead-letter queue)')).toEqual([
      'AWS/SQS/ApproximateNumberOfMessagesVisible',
    ]);
  });

  it('graphs every route function', () => {
    const graphs = graphsOf(plain);
    for (const title of ['Invocations', 'Unhandled errors', 'Duration p99', 'Throttles']) {
      expect(graphs.get(title)).toHaveLength(routes.length);
    }
  });

  it('graphs the state changes the routes count and every function’s cold starts', () => {
    const graphs = graphsOf(plain);
    expect(graphs.get('State changes')).toEqual([
      'SecretsService/ServiceAccountSignIns service=secrets-service',
      'SecretsService/ChangeRequestsCreated service=secrets-service',
      'SecretsService/ChangeRequestsForced service=secrets-service',
      'SecretsService/ChangeRequestsApproved service=secrets-service',
      'SecretsService/SecretBatchesWritten service=secrets-service',
      'SecretsService/SecretsWritten service=secrets-service',
      'SecretsService/SecretsDeleted service=secrets-service',
      'SecretsService/SecretsRestored service=secrets-service',
      'SecretsService/MembersAdded service=secrets-service',
      'SecretsService/MembersRemoved service=secrets-service',
      'SecretsService/SecretsPromoted service=secrets-service',
      'SecretsService/WebhooksCreated service=secrets-service',
      'SecretsService/SharesCreated service=secrets-service',
      'SecretsService/SharesDeleted service=secrets-service',
      'SecretsService/SharesRevealed service=secrets-service',
      'SecretsService/TokensCreated service=secrets-service',
      'SecretsService/TokensRevoked service=secrets-service',
      'SecretsService/TokensRotated service=secrets-service',
    ]);
    expect(graphs.get('Cold starts')).toEqual(
      ['authorizer', ...routes.map((route) => route.handler)].map(
        (name) => `SecretsService/ColdStart function_name=${name} service=secrets-service`,
      ),
    );
  });

  it('graphs the table: consumed RCU/WCU, throttles and system errors, latency per operation', () => {
    const graphs = graphsOf(plain);
    expect(graphs.get('Consumed capacity')).toEqual([
      'AWS/DynamoDB/ConsumedReadCapacityUnits',
      'AWS/DynamoDB/ConsumedWriteCapacityUnits',
      ...INDEXES.flatMap((index) => [
        `AWS/DynamoDB/ConsumedReadCapacityUnits GlobalSecondaryIndexName=${index}`,
        `AWS/DynamoDB/ConsumedWriteCapacityUnits GlobalSecondaryIndexName=${index}`,
      ]),
    ]);
    expect(graphs.get('Throttles and system errors')).toEqual(
      expect.arrayContaining([
        'AWS/DynamoDB/ThrottledRequests Operation=GetItem',
        'AWS/DynamoDB/ReadThrottleEvents',
        'AWS/DynamoDB/WriteThrottleEvents',
        'AWS/DynamoDB/SystemErrors Operation=GetItem',
      ]),
    );
    expect(graphs.get('Request latency (average)')).toEqual(
      OPERATIONS.map((operation) => `AWS/DynamoDB/SuccessfulRequestLatency Operation=${operation}`),
    );
  });

  it('graphs the web ACL only when there is one', () => {
    expect(graphsOf(plain).has('Web ACL')).toBe(false);
    const graphs = graphsOf(guarded);
    expect(graphs.get('Web ACL')).toEqual([
      'AWS/WAFV2/AllowedRequests Rule=ALL WebACL=SecretsService-Api',
      'AWS/WAFV2/BlockedRequests Rule=ALL WebACL=SecretsService-Api',
    ]);
    // The managed rule groups only count (see the WAF tests): the rules that block are the ones to graph.
    expect(graphs.get('Blocked by rule')).toEqual(
      ['RateLimitProbe', 'BlockIpReputation', 'PerIpRateLimit', 'PerCredentialRateLimit', 'BlockCommonRuleSet'].map(
        (rule) => `AWS/WAFV2/BlockedRequests Rule=${rule} WebACL=SecretsService-Api`,
      ),
    );
  });
});

/** Label namespaces of the two managed rule groups (AWS WAF Developer Guide, AWS Managed Rules rule groups list). */
const CRS = 'awswaf:managed:aws:core-rule-set:';
const IP_LIST = 'awswaf:managed:aws:amazon-ip-list:';
const CRS_NO_USER_AGENT = `${CRS}NoUserAgent_Header`;
const CRS_BODY_SIZE = `${CRS}SizeRestrictions_Body`;

const wafRules = (synthesized: Synthesized): Json[] => onlyResource(synthesized, 'AWS::WAFv2::WebACL').Rules as Json[];
const wafRule = (synthesized: Synthesized, name: string): Json => {
  const rule = wafRules(synthesized).find((candidate) => candidate.Name === name);
  if (!rule) throw new Error(`No WAF rule ${name}`);
  return rule;
};

/**
 * Whether a statement matches a request that carries exactly these labels, stays under the rate
 * limits and sends no probe header: enough of WAF's semantics to evaluate the label rules, and loud about any other statement.
 */
const matchesLabels = (statement: Json, labels: readonly string[]): boolean => {
  const [[kind, body]] = Object.entries(statement) as [[string, Json]];
  switch (kind) {
    case 'LabelMatchStatement':
      return body.Scope === 'NAMESPACE'
        ? labels.some((label) => label.startsWith(body.Key as string))
        : labels.includes(body.Key as string);
    case 'AndStatement':
      return (body.Statements as Json[]).every((inner) => matchesLabels(inner, labels));
    case 'OrStatement':
      return (body.Statements as Json[]).some((inner) => matchesLabels(inner, labels));
    case 'NotStatement':
      return !matchesLabels(body.Statement as Json, labels);
    case 'RateBasedStatement':
    case 'ByteMatchStatement': // the probe header, which these requests do not carry
      return false;
    default:
      throw new Error(`No label semantics for ${kind}`);
  }
};

/** The rules whose action is Block that a request with these labels would meet. */
const blockingRulesFor = (synthesized: Synthesized, labels: readonly string[]): unknown[] =>
  wafRules(synthesized)
    .filter((rule) => (rule.Action as Json | undefined)?.Block && matchesLabels(rule.Statement as Json, labels))
    .map((rule) => rule.Name);

describe('WAF', () => {
  it('is on by default, with the per-credential limit at 600 requests a minute', () => {
    const byDefault = synthesize();
    byDefault.template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    byDefault.template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    expect((wafRule(byDefault, 'PerCredentialRateLimit').Statement as Json).RateBasedStatement).toMatchObject({
      Limit: 600,
      EvaluationWindowSec: 60,
    });
    expect((wafRule(byDefault, 'PerIpRateLimit').Statement as Json).RateBasedStatement).toMatchObject({
      Limit: 1000,
    });
    expect(byDefault.acknowledgements.map((acknowledgement) => acknowledgement.id)).not.toContain('AwsSolutions-APIG3');
    expect(byDefault.findings).toEqual([]);
  });

  it('is off with waf=false: no web ACL, and the stage acknowledges AwsSolutions-APIG3 with a reason', () => {
    plain.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    plain.template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    expect(plain.template.findOutputs('WebAclArn')).toEqual({});
    expect(plain.acknowledgements).toContainEqual(
      expect.objectContaining({ id: 'AwsSolutions-APIG3', reason: expect.stringContaining('waf=false') }),
    );
  });

  it('with waf=true, guards the stage with a regional web ACL that allows what no rule blocks', () => {
    const acl = onlyResource(guarded, 'AWS::WAFv2::WebACL');
    expect(acl).toMatchObject({
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      VisibilityConfig: {
        CloudWatchMetricsEnabled: true,
        SampledRequestsEnabled: true,
        MetricName: 'SecretsService-Api',
      },
    });
    const association = onlyResource(guarded, 'AWS::WAFv2::WebACLAssociation');
    const webAcl = guarded.stack.webAcl;
    if (!webAcl) throw new Error('expected a web ACL');
    expect(association.WebACLArn).toEqual({ 'Fn::GetAtt': [logicalId(guarded, webAcl.webAcl), 'Arn'] });
    const resourceArn = JSON.stringify(association.ResourceArn);
    expect(resourceArn).toContain(JSON.stringify(ref(guarded, guarded.stack.serviceApi.api)));
    expect(resourceArn).toContain(JSON.stringify(ref(guarded, guarded.stack.serviceApi.api.deploymentStage)));
    expect(resourceArn).toMatch(/:apigateway:.*::\/restapis\/.*\/stages\//);
    expect(guarded.template.findOutputs('WebAclArn').WebAclArn).toBeDefined();
  });

  it('runs each managed rule group in count mode, followed by the rule that blocks what it labels', () => {
    const rules = wafRules(guarded);
    expect(rules.map((rule) => [rule.Priority, rule.Name])).toEqual([
      [0, 'RateLimitProbe'],
      [1, 'AWS-AWSManagedRulesAmazonIpReputationList'],
      [2, 'BlockIpReputation'],
      [3, 'PerIpRateLimit'],
      [4, 'PerCredentialRateLimit'],
      [5, 'AWS-AWSManagedRulesCommonRuleSet'],
      [6, 'BlockCommonRuleSet'],
    ]);
    for (const rule of rules) {
      expect(rule.VisibilityConfig).toEqual({
        CloudWatchMetricsEnabled: true,
        SampledRequestsEnabled: true,
        MetricName: rule.Name,
      });
    }
  });

  it("lets the managed rule groups block nothing themselves, so that no request gets WAF's bare 403", () => {
    const groups = wafRules(guarded).filter((rule) => (rule.Statement as Json).ManagedRuleGroupStatement);
    expect(
      groups.map((rule) => (rule.Statement as { ManagedRuleGroupStatement: Json }).ManagedRuleGroupStatement.Name),
    ).toEqual(['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesCommonRuleSet']);
    for (const group of groups) {
      expect(group.OverrideAction).toEqual({ Count: {} });
      expect(group.Action).toBeUndefined();
    }
  });

  it("answers every block with the contract's JSON error body and a 4xx status", () => {
    const acl = onlyResource(guarded, 'AWS::WAFv2::WebACL');
    const bodies = acl.CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
    const blocking = wafRules(guarded).filter((rule) => (rule.Action as Json | undefined)?.Block);
    expect(blocking.map((rule) => rule.Name)).toEqual([
      'RateLimitProbe',
      'BlockIpReputation',
      'PerIpRateLimit',
      'PerCredentialRateLimit',
      'BlockCommonRuleSet',
    ]);
    const answers = blocking.map((rule) => {
      const response = ((rule.Action as { Block: Json }).Block as { CustomResponse?: Json }).CustomResponse;
      if (!response) throw new Error(`${String(rule.Name)} blocks with WAF's default response`);
      const body = bodies[response.CustomResponseBodyKey as string];
      if (!body)
        throw new Error(`${String(rule.Name)} names an unknown body ${String(response.CustomResponseBodyKey)}`);
      expect(body.ContentType).toBe('APPLICATION_JSON');
      const parsed = JSON.parse(body.Content) as { success: boolean; error: string };
      expect(parsed).toEqual({ success: false, error: expect.any(String) });
      expect(Object.values(ErrorText)).toContain(parsed.error);
      expect(response.ResponseCode).toBeGreaterThanOrEqual(400);
      expect(response.ResponseCode).toBeLessThan(500);
      return [rule.Name, response.ResponseCode, parsed.error];
    });
    expect(answers).toEqual([
      ['RateLimitProbe', 429, ErrorText.tooManyRequests],
      ['BlockIpReputation', 403, ErrorText.firewallBlocked],
      ['PerIpRateLimit', 429, ErrorText.tooManyRequests],
      ['PerCredentialRateLimit', 429, ErrorText.tooManyRequests],
      ['BlockCommonRuleSet', 403, ErrorText.firewallBlocked],
    ]);
  });

  it("gives every block the API's headers: no-store and the dashboard's CORS, Retry-After on the per-credential 429", () => {
    const headersOf = (name: string) =>
      Object.fromEntries(
        (
          ((wafRule(guarded, name).Action as { Block: Json }).Block as { CustomResponse: Json }).CustomResponse
            .ResponseHeaders as { Name: string; Value: unknown }[]
        ).map((header) => [header.Name, header.Value]),
      );
    for (const name of ['BlockIpReputation', 'PerIpRateLimit', 'BlockCommonRuleSet']) {
      expect(headersOf(name)).toEqual({
        'Cache-Control': 'no-store',
        'Access-Control-Allow-Origin': expect.anything(),
        'Access-Control-Expose-Headers': 'Retry-After, ETag',
      });
    }
    // The dashboard's origin is the distribution's, known only at deploy time.
    expect(JSON.stringify(headersOf('BlockIpReputation')['Access-Control-Allow-Origin'])).toContain(
      logicalId(guarded, guarded.stack.dashboard.distribution),
    );
    for (const name of ['RateLimitProbe', 'PerCredentialRateLimit']) {
      expect(headersOf(name)).toEqual({
        'Cache-Control': 'no-store',
        'Access-Control-Allow-Origin': headersOf('BlockIpReputation')['Access-Control-Allow-Origin'],
        'Access-Control-Expose-Headers': 'Retry-After, ETag',
        'Retry-After': '60',
      });
    }
  });

  it('limits each credential (the Authorization header, untransformed) to rateLimitPerMinute requests a minute', () => {
    expect(wafRule(guarded, 'PerCredentialRateLimit').Statement).toEqual({
      RateBasedStatement: {
        Limit: 120,
        EvaluationWindowSec: 60,
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
      },
    });
  });

  it('keeps no credential in its sampled requests or logs: the Authorization header is redacted', () => {
    expect(onlyResource(guarded, 'AWS::WAFv2::WebACL').DataProtectionConfig).toEqual({
      DataProtections: [
        {
          Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization'] },
          Action: 'SUBSTITUTION',
          ExcludeRateBasedDetails: false,
          ExcludeRuleMatchDetails: false,
        },
      ],
    });
  });

  it('answers X-Rate-Limit-Probe: 1 with the per-credential 429, before any rule counts the request', () => {
    const probe = wafRule(guarded, 'RateLimitProbe');
    expect(probe.Statement).toEqual({
      ByteMatchStatement: {
        FieldToMatch: { SingleHeader: { Name: 'x-rate-limit-probe' } },
        PositionalConstraint: 'EXACTLY',
        SearchString: '1',
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    });
    expect(probe.Priority).toBe(0);
    expect(probe.Action).toEqual(wafRule(guarded, 'PerCredentialRateLimit').Action);
  });

  it.each([
    ['no User-Agent header (automation clients)', [CRS_NO_USER_AGENT]],
    ['a body over 8 KB (the API answers its own 413 over 16 KiB)', [CRS_BODY_SIZE]],
    ['both', [CRS_NO_USER_AGENT, CRS_BODY_SIZE]],
    ["an address on AWS's DDoS list, which AWS itself only counts", [`${IP_LIST}AWSManagedIPDDoSList`]],
    ['no label at all', []],
  ])('blocks no request whose only labels say %s', (_case, labels) => {
    expect(blockingRulesFor(guarded, labels)).toEqual([]);
  });

  it.each([
    ['a cross-site scripting body', [`${CRS}CrossSiteScripting_Body`], 'BlockCommonRuleSet'],
    ['a rule the common rule set may add later', [`${CRS}SomeFutureRule_QueryArguments`], 'BlockCommonRuleSet'],
    // Leaving out the User-Agent header must not switch the common rule set off.
    [
      'cross-site scripting without a User-Agent',
      [CRS_NO_USER_AGENT, `${CRS}CrossSiteScripting_Body`],
      'BlockCommonRuleSet',
    ],
    ['path traversal in a large body', [CRS_BODY_SIZE, `${CRS}GenericLFI_Body`], 'BlockCommonRuleSet'],
    ['an address on the IP reputation list', [`${IP_LIST}AWSManagedIPReputationList`], 'BlockIpReputation'],
    ['a reconnaissance address', [`${IP_LIST}AWSManagedReconnaissanceList`], 'BlockIpReputation'],
  ])('blocks a request labelled for %s', (_case, labels, rule) => {
    expect(blockingRulesFor(guarded, labels)).toEqual([rule]);
  });

  it("limits each source IP to wafRateLimit requests per 5 minutes and answers the contract's 429", () => {
    const rate = wafRule(guarded, 'PerIpRateLimit');
    expect(rate.Statement).toEqual({
      RateBasedStatement: { Limit: 500, AggregateKeyType: 'IP', EvaluationWindowSec: 300 },
    });
    expect(rate.Action).toEqual({
      Block: {
        CustomResponse: {
          ResponseCode: 429,
          CustomResponseBodyKey: 'TooManyRequests',
          ResponseHeaders: expect.any(Array),
        },
      },
    });
    expect((onlyResource(guarded, 'AWS::WAFv2::WebACL').CustomResponseBodies as Json).TooManyRequests).toEqual({
      ContentType: 'APPLICATION_JSON',
      Content: JSON.stringify({ success: false, error: 'Too many requests' }),
    });
  });

  it('defaults the rate limit to 1000', () => {
    const synthesized = synthesize({ context: { waf: true } });
    expect((wafRule(synthesized, 'PerIpRateLimit').Statement as Json).RateBasedStatement).toMatchObject({
      Limit: 1000,
    });
    expect(synthesized.findings).toEqual([]);
  });

  it('needs no AwsSolutions-APIG3 acknowledgement when on', () => {
    expect(guarded.acknowledgements.map((acknowledgement) => acknowledgement.id)).not.toContain('AwsSolutions-APIG3');
  });
});

describe('cdk-nag on every variant', () => {
  it.each([
    ['WAF off, no alarm e-mail', () => plain],
    ['WAF on, alarm e-mail', () => guarded],
    ['WAF off, alarm e-mail', () => synthesize({ context: { alarmEmail: ALARM_EMAIL } })],
  ])('%s: no unacknowledged AwsSolutions or Serverless finding', (_name, variant) => {
    const synthesized = variant();
    expect(synthesized.nagPacks).toEqual(['AwsSolutions', 'Serverless']);
    expect(synthesized.findings).toEqual([]);
  });

  it("acknowledges the e-mail subscription's missing dead-letter queue with a reason, only on the subscription", () => {
    const acknowledgements = guarded.acknowledgements.filter(
      (acknowledgement) => acknowledgement.id === 'Serverless-SNSRedrivePolicy',
    );
    expect(acknowledgements).toEqual([
      expect.objectContaining({ constructPath: `SecretsService/Observability/AlarmTopic/${ALARM_EMAIL}` }),
    ]);
    expect(acknowledgements[0]?.reason.length).toBeGreaterThan(40);
    expect(plain.acknowledgements.map((acknowledgement) => acknowledgement.id)).not.toContain(
      'Serverless-SNSRedrivePolicy',
    );
  });
});
