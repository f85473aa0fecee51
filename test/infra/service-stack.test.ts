import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { corsHeaders } from '@contract/cors';
import { gatewayResponses } from '@contract/gateway-responses';
import { methodsByPath, routeRulesJson } from '@contract/route-table';
import { routes } from '@contract/routes';
import { expiryNoticeTableAccess, grantsOf, offboardingTableAccess, type TableAccess } from '@contract/table-access';
import { tableKeys } from '@contract/table-keys';
import { noticeIndexName, tableSchema } from '@contract/table-schema';
import { esbuildOptions, PROJECT_ROOT } from '@lib/bundling';
import { EXPIRY_NOTICES_ENTRY } from '@lib/constructs/expiry-notices';
import { OFFBOARDING_CALLS, OFFBOARDING_ENTRY } from '@lib/constructs/offboarding';
import { SECRET_VERSION_CLEANUP_ENTRY } from '@lib/constructs/secret-version-cleanup';
import { AUTHORIZER_ENTRY, routeEntry } from '@lib/constructs/service-api';
import { resourcePaths, type Synthesized, synthesize } from '@test/infra/synth';
import { type CfnResource, Names } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { dashboardFiles } from '../../dashboard/build';

const AUTHORIZER = 'authorizer';
const OFFBOARDING = 'offboard-user';
const EXPIRY_NOTICES = 'send-expiry-notices';
const SECRET_VERSION_CLEANUP = 'purge-expired-secret-versions';

type Json = Record<string, unknown>;
interface CfnStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

let synthesized: Synthesized;

// Bundling all functions with esbuild is the slow part: do it once for the whole file.
beforeAll(() => {
  synthesized = synthesize({ bundle: true });
});

const resourcesOf = (type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;
const propertiesOf = (resource: Json): Json => resource.Properties as Json;
const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  synthesized.stack.getLogicalId(construct.node.defaultChild as CfnResource);

const routeFunction = (handler: string) => {
  const fn = synthesized.stack.serviceApi.routeFunctions.get(handler);
  if (!fn) throw new Error(`No function for ${handler}`);
  return fn;
};
const tableLogicalId = () => logicalId(synthesized.stack.dataStore.table);
const offboardingFunction = () => {
  const fn = synthesized.stack.offboarding?.function;
  if (!fn) throw new Error('No offboarding function');
  return fn;
};
/** The role of CDK's function that deploys the dashboard's files (in DashboardDeploymentStack, beside the deployment). */
const dashboardDeploymentRole = () => {
  const scope = synthesized.stack.dashboard.deployment?.node.scope;
  if (!scope) throw new Error('The dashboard was never published');
  return scope.node.findChild('DeploymentRole');
};
const expiryNoticesFunction = () => synthesized.stack.expiryNotices.function;
const secretVersionCleanupFunction = () => synthesized.stack.secretVersionCleanup.function;
/** Logical ids of the service's own functions: the authorizer, one per route, the offboarding, expiry-notice and secret-version cleanup functions. */
const serviceFunctionIds = (): Set<string> =>
  new Set(
    [
      synthesized.stack.serviceApi.authorizerFunction,
      ...synthesized.stack.serviceApi.routeFunctions.values(),
      offboardingFunction(),
      expiryNoticesFunction(),
      secretVersionCleanupFunction(),
      synthesized.stack.webhookDelivery.function,
    ].map((fn) => logicalId(fn.lambdaFunction)),
  );
/** The service's own functions, without CDK's deploy-time handlers. */
const serviceFunctions = (): [string, Json][] =>
  Object.entries(resourcesOf('AWS::Lambda::Function')).filter(([id]) => serviceFunctionIds().has(id));

/** Every statement of every policy attached to the role. */
const statementsOfRole = (roleLogicalId: string): CfnStatement[] =>
  Object.values(resourcesOf('AWS::IAM::Policy'))
    .map(propertiesOf)
    .filter((properties) => (properties.Roles as unknown[]).some((role) => (role as Json).Ref === roleLogicalId))
    .flatMap((properties) => (properties.PolicyDocument as { Statement: CfnStatement[] }).Statement);

const actionsOf = (statement: CfnStatement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/**
 * The role's DynamoDB permissions as sorted `action on resource for partition` lines, however the
 * statements are merged; every DynamoDB statement must carry a `dynamodb:LeadingKeys` condition.
 */
const dynamoGrants = (roleLogicalId: string): string[] => {
  const tableArn = { 'Fn::GetAtt': [tableLogicalId(), 'Arn'] };
  const resources = new Map([
    [JSON.stringify(tableArn), 'table'],
    ...tableSchema.globalSecondaryIndexes.map(
      ({ indexName }) =>
        [JSON.stringify({ 'Fn::Join': ['', [tableArn, `/index/${indexName}`]] }), indexName] as [string, string],
    ),
  ]);
  const lines: string[] = [];
  for (const statement of statementsOfRole(roleLogicalId)) {
    const actions = actionsOf(statement).filter((action) => action.startsWith('dynamodb:'));
    if (actions.length === 0) continue;
    expect(statement.Effect).toBe('Allow');
    const resource = resources.get(JSON.stringify(statement.Resource));
    if (!resource) throw new Error(`Unexpected DynamoDB resource ${JSON.stringify(statement.Resource)}`);
    const leading = (statement as { Condition?: Record<string, Record<string, unknown>> }).Condition?.[
      'ForAllValues:StringLike'
    ]?.['dynamodb:LeadingKeys'];
    const patterns = Array.isArray(leading) ? leading : [leading];
    if (patterns.some((pattern) => typeof pattern !== 'string')) {
      throw new Error(`DynamoDB statement without a LeadingKeys condition: ${JSON.stringify(statement)}`);
    }
    for (const action of actions) for (const pattern of patterns) lines.push(`${action} on ${resource} for ${pattern}`);
  }
  return [...new Set(lines)].sort();
};

/** The same lines for a declared table access. */
const declaredGrants = (access: TableAccess): string[] =>
  [
    ...new Set(
      access.flatMap((grant) =>
        grant.actions.flatMap((action) =>
          grant.partitions.map((prefix) => `${action} on ${grant.index ?? 'table'} for ${prefix}*`),
        ),
      ),
    ),
  ].sort();

describe('API routes', () => {
  it("has exactly one method per route of the route table, the API document and a path's CORS preflight", () => {
    expect(Object.keys(resourcesOf('AWS::ApiGateway::Method'))).toHaveLength(routes.length + 1 + methodsByPath.size);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'serves %s with its own function behind the REQUEST authorizer (a sign-in: with none)',
    (_name, route) => {
      const paths = resourcePaths(synthesized.template);
      const resourceId = [...paths].find(([, fullPath]) => fullPath === route.path)?.[0];
      expect(resourceId).toBeDefined();
      const functionId = logicalId(routeFunction(route.handler).lambdaFunction);

      synthesized.template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: route.method,
        ResourceId: { Ref: resourceId },
        ...(route.signIn
          ? { AuthorizationType: 'NONE', AuthorizerId: Match.absent() }
          : {
              AuthorizationType: 'CUSTOM',
              AuthorizerId: { Ref: logicalId(synthesized.stack.serviceApi.node.findChild('Authorizer')) },
            }),
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [functionId, 'Arn'] }])] },
        },
      });
    },
  );
});

describe('route permissions', () => {
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'lets API Gateway invoke the function of %s from that method on the stage only',
    (_name, route) => {
      const functionArn = { 'Fn::GetAtt': [logicalId(routeFunction(route.handler).lambdaFunction), 'Arn'] };
      const permissions = Object.values(resourcesOf('AWS::Lambda::Permission'))
        .map(propertiesOf)
        .filter((permission) => JSON.stringify(permission.FunctionName) === JSON.stringify(functionArn));
      expect(permissions).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          FunctionName: functionArn,
          Principal: 'apigateway.amazonaws.com',
          SourceArn: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':execute-api:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':',
                { Ref: logicalId(synthesized.stack.serviceApi.api) },
                `/prod/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`,
              ],
            ],
          },
        },
      ]);
    },
  );
});

describe('REQUEST authorizer', () => {
  it('identifies callers by Authorization header and source IP and never caches a decision', () => {
    const authorizerFunctionId = logicalId(synthesized.stack.serviceApi.authorizerFunction.lambdaFunction);
    synthesized.template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    synthesized.template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization,context.identity.sourceIp',
      AuthorizerResultTtlInSeconds: 0,
      AuthorizerUri: {
        'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [authorizerFunctionId, 'Arn'] }])],
      },
    });
  });

  it('trusts the Cognito pool and app client by default', () => {
    const { users } = synthesized.stack;
    if (!users) throw new Error('expected a user pool');
    synthesized.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('authorizer'),
      Environment: {
        Variables: Match.objectLike({
          SESSION_ISSUER: {
            'Fn::Join': [
              '',
              [
                'https://cognito-idp.',
                { Ref: 'AWS::Region' },
                '.',
                { Ref: 'AWS::URLSuffix' },
                '/',
                { Ref: logicalId(users) },
              ],
            ],
          },
          SESSION_AUDIENCE: { Ref: logicalId(users.client) },
          SESSION_JWKS_URL: Match.absent(),
          // The authorizer's rule per route, from the route contracts.
          ROUTE_RULES: routeRulesJson(),
        }),
      },
    });
  });
});

describe('gateway responses', () => {
  it('defines exactly the responses of contract/gateway-responses.ts', () => {
    synthesized.template.resourceCountIs('AWS::ApiGateway::GatewayResponse', gatewayResponses.length);
  });

  it.each(gatewayResponses.map((response) => [response.type, response] as const))(
    "answers %s with its status, JSON body and headers, readable by the dashboard's origin",
    (_type, response) => {
      const headers = { ...response.headers, ...corsHeaders(synthesized.stack.dashboardOrigin) };
      synthesized.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: response.type,
        StatusCode: response.statusCode === undefined ? Match.absent() : String(response.statusCode),
        ResponseTemplates: Match.objectEquals({ 'application/json': response.template }),
        ResponseParameters: Match.objectEquals(
          synthesized.stack.resolve(
            Object.fromEntries(
              Object.entries(headers).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`]),
            ),
          ),
        ),
      });
    },
  );
});

describe('caching', () => {
  it("tells browsers and caches to store none of the gateway's own answers, nor the API document", () => {
    const responses = Object.values(resourcesOf('AWS::ApiGateway::GatewayResponse'));
    expect(responses).toHaveLength(gatewayResponses.length);
    for (const response of responses) {
      expect(propertiesOf(response).ResponseParameters).toMatchObject({
        'gatewayresponse.header.Cache-Control': "'no-store'",
      });
    }
    synthesized.template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'GET',
      Integration: {
        Type: 'MOCK',
        IntegrationResponses: [
          Match.objectLike({
            StatusCode: '200',
            ResponseParameters: Match.objectLike({ 'method.response.header.Cache-Control': "'no-store'" }),
          }),
        ],
      },
    });
  });
});

describe('table', () => {
  it('is one on-demand table with the schema of contract/table-schema.ts', () => {
    // CloudFormation has no StreamEnabled (CreateTable's flag): a view type alone turns the stream on.
    const { StreamSpecification, ...keys } = tableKeys;
    expect(StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    synthesized.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    synthesized.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      ...keys,
      StreamSpecification: Match.objectEquals({ StreamViewType: tableSchema.streamViewType }),
      TimeToLiveSpecification: { AttributeName: tableSchema.timeToLiveAttribute, Enabled: true },
    });
  });

  it('keeps its data: point-in-time recovery, deletion protection, retained on delete and replace', () => {
    synthesized.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });
});

describe('least privilege', () => {
  it('lets the authorizer touch token and profile items only, read service accounts, and put denial events in the audit trail', () => {
    const roleId = logicalId(synthesized.stack.serviceApi.authorizerFunction.role);
    // A session's profile and address claim are read in one BatchGetItem on every session request; a
    // service account's token, its service account (in its project's partition).
    expect(dynamoGrants(roleId)).toEqual([
      'dynamodb:BatchGetItem on table for EMAIL#*',
      'dynamodb:BatchGetItem on table for USER#*',
      'dynamodb:DeleteItem on table for EMAIL#*',
      'dynamodb:GetItem on table for PROJECT#*',
      'dynamodb:GetItem on table for TOKEN#*',
      'dynamodb:PutItem on table for AUDIT#*',
      'dynamodb:PutItem on table for EMAIL#*',
      'dynamodb:UpdateItem on table for TOKEN#*',
      'dynamodb:UpdateItem on table for USER#*',
    ]);
  });

  it.each(routes.map((route) => [route.handler, route] as const))(
    'grants %s exactly the actions of the calls its contract lists, each on its partition',
    (handler, route) => {
      const fn = routeFunction(handler);
      expect(dynamoGrants(logicalId(fn.role))).toEqual(declaredGrants(grantsOf(route.dataAccess)));
    },
  );

  it('keeps project routes away from tokens, and token routes away from projects', () => {
    // A service account's tokens are the one meeting of both: tokens of a project's machine, made by
    // its managers or got by its sign-ins.
    const machineTokens = (contract: (typeof routes)[number]) =>
      contract.signIn === true || contract.path.includes('/service-accounts/{serviceAccountId}/tokens');
    for (const route of routes.filter((contract) => !machineTokens(contract))) {
      const lines = dynamoGrants(logicalId(routeFunction(route.handler).role));
      const forbidden = route.path.startsWith('/api/v1/projects') ? 'TOKEN#' : 'PROJECT#';
      expect({ route: route.handler, lines: lines.filter((line) => line.endsWith(`for ${forbidden}*`)) }).toEqual({
        route: route.handler,
        lines: [],
      });
    }
  });

  it('gives each function role only its DynamoDB actions, its secrets key calls, its own log group and X-Ray', () => {
    const functions = [
      synthesized.stack.serviceApi.authorizerFunction,
      ...synthesized.stack.serviceApi.routeFunctions.values(),
    ];
    for (const fn of functions) {
      const logGroupArn = { 'Fn::GetAtt': [logicalId(fn.logGroup), 'Arn'] };
      // The KMS statements (a route's keyUse on the secrets key) are checked in checks/secrets-key.ts.
      const secretsKeyArn = JSON.stringify({
        'Fn::GetAtt': [logicalId(synthesized.stack.dataStore.secretsKey), 'Arn'],
      });
      const others = statementsOfRole(logicalId(fn.role)).filter(
        (statement) =>
          !actionsOf(statement).every((action) => action.startsWith('dynamodb:')) &&
          !(
            actionsOf(statement).every((action) => action.startsWith('kms:')) &&
            JSON.stringify(statement.Resource) === secretsKeyArn
          ),
      );
      expect(others).toEqual([
        { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: logGroupArn },
        { Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: '*' },
      ]);
      const role = propertiesOf(resourcesOf('AWS::IAM::Role')[logicalId(fn.role)] as Json);
      expect(role.ManagedPolicyArns).toBeUndefined();
      expect(role.Policies).toBeUndefined();
    }
  });

  it('never grants dynamodb:*, Scan or a wildcard action to a role of the service', () => {
    // CDK's dashboard deployment has S3 wildcards of its own (checks/dashboard.ts lists them).
    const deploymentRole = JSON.stringify({ Ref: logicalId(dashboardDeploymentRole()) });
    const actions = Object.values(resourcesOf('AWS::IAM::Policy'))
      .map(propertiesOf)
      .filter((properties) => !(properties.Roles as unknown[]).some((role) => JSON.stringify(role) === deploymentRole))
      .flatMap((properties) =>
        (properties.PolicyDocument as { Statement: CfnStatement[] }).Statement.flatMap(actionsOf),
      );
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*') || /scan/i.test(action))).toEqual([]);
  });
});

describe('offboarding', () => {
  it('runs on the CloudTrail record of each Cognito call that disables or deletes a user, unless it failed', () => {
    // The rules of the default bus (the webhook rule is on the audit bus: checks/webhook-delivery.ts).
    const rules = Object.values(resourcesOf('AWS::Events::Rule'))
      .map(propertiesOf)
      .filter((rule) => rule.EventBusName === undefined);
    expect(rules).toHaveLength(1);
    expect(rules[0]?.EventPattern).toEqual({
      source: ['aws.cognito-idp'],
      'detail-type': ['AWS API Call via CloudTrail'],
      detail: {
        eventSource: ['cognito-idp.amazonaws.com'],
        eventName: [...OFFBOARDING_CALLS],
        errorCode: [{ exists: false }],
      },
    });
    expect(OFFBOARDING_CALLS).toEqual(['AdminDisableUser', 'AdminDeleteUser', 'DeleteUser']);
  });

  it('targets the offboarding function, keeping what fails every attempt in an encrypted dead-letter queue', () => {
    const [rule] = Object.values(resourcesOf('AWS::Events::Rule')).map(propertiesOf);
    const queueId = logicalId(synthesized.stack.offboarding?.deadLetterQueue as never);
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    expect(rule?.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [logicalId(offboardingFunction().lambdaFunction), 'Arn'] },
        DeadLetterConfig: { Arn: queueArn },
        RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 3 }),
      }),
    ]);
    const fn = propertiesOf(
      resourcesOf('AWS::Lambda::Function')[logicalId(offboardingFunction().lambdaFunction)] as Json,
    );
    expect(fn.DeadLetterConfig).toEqual({ TargetArn: queueArn });
    expect(propertiesOf(resourcesOf('AWS::SQS::Queue')[queueId] as Json)).toMatchObject({ SqsManagedSseEnabled: true });
  });

  it('grants the offboarding function exactly its declared table access', () => {
    expect(dynamoGrants(logicalId(offboardingFunction().role))).toEqual(declaredGrants(offboardingTableAccess));
    // It records the user.offboarded event, and may only add to the trail.
    expect(dynamoGrants(logicalId(offboardingFunction().role)).filter((line) => line.endsWith('AUDIT#*'))).toEqual([
      'dynamodb:PutItem on table for AUDIT#*',
    ]);
  });

  it('is not there when sessions come from an external issuer, whose user directory the stack cannot watch', () => {
    const external = synthesize({
      context: { sessionIssuer: 'https://idp.example.com/', sessionAudience: 'dashboard' },
    });
    expect(external.stack.offboarding).toBeUndefined();
    // Only the webhook rule, on the audit bus.
    external.template.resourceCountIs('AWS::Events::Rule', 1);
    external.template.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Audit events of a project, for its webhooks',
    });
  });
});

describe('expiry notices', () => {
  const queueArn = () => ({ 'Fn::GetAtt': [logicalId(synthesized.stack.expiryNotices.deadLetterQueue), 'Arn'] });
  const functionArn = () => ({ 'Fn::GetAtt': [logicalId(expiryNoticesFunction().lambdaFunction), 'Arn'] });
  const schedulerRoleId = () => logicalId(synthesized.stack.expiryNotices.schedulerRole);

  it('runs every hour on an EventBridge Scheduler schedule, at the hour, never as an EventBridge rule', () => {
    const schedules = Object.values(resourcesOf('AWS::Scheduler::Schedule')).map(propertiesOf);
    expect(schedules).toEqual([
      expect.objectContaining({
        ScheduleExpression: 'rate(1 hour)',
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: 'ENABLED',
      }),
    ]);
    const rules = Object.values(resourcesOf('AWS::Events::Rule')).map(propertiesOf);
    expect(rules.filter((rule) => rule.ScheduleExpression !== undefined)).toEqual([]);
  });

  it('invokes the expiry-notice function with a retry policy, keeping what fails in an encrypted dead-letter queue', () => {
    const [schedule] = Object.values(resourcesOf('AWS::Scheduler::Schedule')).map(propertiesOf);
    expect(schedule?.Target).toEqual({
      Arn: functionArn(),
      RoleArn: { 'Fn::GetAtt': [schedulerRoleId(), 'Arn'] },
      // Retried for up to an hour: then the next run is due, and it sends whatever this one missed.
      RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3600 },
      DeadLetterConfig: { Arn: queueArn() },
    });
    // Scheduler invokes asynchronously: a failed run is retried by Lambda, then kept in the same queue.
    const fn = propertiesOf(
      resourcesOf('AWS::Lambda::Function')[logicalId(expiryNoticesFunction().lambdaFunction)] as Json,
    );
    expect(fn.DeadLetterConfig).toEqual({ TargetArn: queueArn() });
    const queue = propertiesOf(
      resourcesOf('AWS::SQS::Queue')[logicalId(synthesized.stack.expiryNotices.deadLetterQueue)] as Json,
    );
    expect(queue).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 60 * 60 });
  });

  it("gives Scheduler a role of this account's schedules that may invoke this function only, and fill its queue", () => {
    const role = propertiesOf(resourcesOf('AWS::IAM::Role')[schedulerRoleId()] as Json);
    expect((role.AssumeRolePolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: {
            'aws:SourceAccount': { Ref: 'AWS::AccountId' },
            'aws:SourceArn': {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':scheduler:',
                  { Ref: 'AWS::Region' },
                  ':',
                  { Ref: 'AWS::AccountId' },
                  ':schedule-group/default',
                ],
              ],
            },
          },
        },
      },
    ]);
    expect(role.ManagedPolicyArns).toBeUndefined();
    const granted = statementsOfRole(schedulerRoleId()).flatMap((statement) =>
      actionsOf(statement).map((action) => ({ action, resource: statement.Resource })),
    );
    expect(granted).toEqual(
      expect.arrayContaining([
        { action: 'lambda:InvokeFunction', resource: [functionArn(), { 'Fn::Join': ['', [functionArn(), ':*']] }] },
        { action: 'sqs:SendMessage', resource: queueArn() },
      ]),
    );
    expect(granted).toHaveLength(2);
    // No other role Scheduler may assume.
    const schedulerRoles = Object.entries(resourcesOf('AWS::IAM::Role')).filter(([, resource]) =>
      JSON.stringify(propertiesOf(resource).AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
    );
    expect(schedulerRoles.map(([id]) => id)).toEqual([schedulerRoleId()]);
  });

  it('finds the notices due through the notice index of the table: its own keys, only what a token is created with', () => {
    const indexes = Object.values(resourcesOf('AWS::DynamoDB::Table')).flatMap(
      (table) => propertiesOf(table).GlobalSecondaryIndexes as Json[],
    );
    expect(indexes.find((index) => index.IndexName === noticeIndexName)).toEqual({
      IndexName: 'GSI2',
      KeySchema: [
        { AttributeName: 'GSI2PK', KeyType: 'HASH' },
        { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['tokenId', 'userId', 'name', 'expiresAt'] },
    });
  });

  it('grants the expiry-notice function exactly its declared table access: query due notices, mark tokens, add to trails', () => {
    const grants = dynamoGrants(logicalId(expiryNoticesFunction().role));
    expect(grants).toEqual(declaredGrants(expiryNoticeTableAccess));
    expect(grants).toEqual([
      'dynamodb:PutItem on table for AUDIT#*',
      'dynamodb:Query on GSI2 for NOTICE#*',
      'dynamodb:UpdateItem on table for TOKEN#*',
    ]);
  });
});

describe('functions', () => {
  it("creates one function per route, the authorizer, the offboarding, expiry-notice, secret-version cleanup and webhook delivery functions, besides CDK's deploy-time two", () => {
    expect(serviceFunctionIds().size).toBe(routes.length + 5);
    expect([...synthesized.stack.serviceApi.routeFunctions.keys()]).toEqual(routes.map((route) => route.handler));
    // CloudFormation runs these two during a deploy only: copying the dashboard's files, emptying its bucket on delete.
    const others = Object.keys(resourcesOf('AWS::Lambda::Function')).filter((id) => !serviceFunctionIds().has(id));
    expect(others.sort()).toEqual([
      expect.stringMatching(/^CustomCDKBucketDeployment/),
      expect.stringMatching(/^CustomS3AutoDeleteObjectsCustomResourceProvider/),
    ]);
  });

  it('runs every function on Node.js 22, arm64, with tracing, its log group and the shared environment', () => {
    const tableRef = { Ref: tableLogicalId() };
    // Every route's function, the authorizer, and the background ones.
    expect(serviceFunctions().length).toBeGreaterThan(routes.length);
    for (const [id, resource] of serviceFunctions()) {
      const properties = propertiesOf(resource);
      expect({ id, runtime: properties.Runtime, architectures: properties.Architectures }).toEqual({
        id,
        runtime: 'nodejs22.x',
        architectures: ['arm64'],
      });
      expect(properties).toMatchObject({
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        MemorySize: 256,
        // The offboarding function revokes every token of a user, one transaction each; the expiry-notice
        // function sends every notice due, one transaction each; the webhook delivery waits up to 10 s for
        // receivers, side by side.
        Timeout:
          id === logicalId(synthesized.stack.webhookDelivery.function.lambdaFunction)
            ? 30
            : id === logicalId(offboardingFunction().lambdaFunction) ||
                id === logicalId(secretVersionCleanupFunction().lambdaFunction)
              ? 60
              : id === logicalId(expiryNoticesFunction().lambdaFunction)
                ? 300
                : 10,
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        Environment: {
          Variables: expect.objectContaining({
            TABLE_NAME: tableRef,
            POWERTOOLS_LOG_LEVEL: 'INFO',
            // Every one of them writes audit events, whose TTL follows it.
            AUDIT_RETENTION_DAYS: '400',
          }),
        },
      });
    }
  });

  it('leaves the log format and levels at their defaults, so Lambda neither wraps nor filters our JSON lines', () => {
    // LoggingFormat.JSON would re-wrap each console line as an escaped string in `message` and filter by
    // console method (see ServiceFunction); POWERTOOLS_LOG_LEVEL alone decides what is logged.
    for (const [id, resource] of serviceFunctions()) {
      expect({ id, loggingConfig: propertiesOf(resource).LoggingConfig }).toEqual({
        id,
        loggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
    }
  });

  it('keeps function, access and dashboard deployment logs for the configured 30 days', () => {
    const retentions = Object.values(resourcesOf('AWS::Logs::LogGroup')).map(
      (group) => propertiesOf(group).RetentionInDays,
    );
    // Each route function's, the authorizer's, the offboarding, expiry-notice, secret-version cleanup and
    // webhook delivery functions', the stage's, the dashboard deployment's and the audit pipe's.
    expect(retentions).toHaveLength(routes.length + 8);
    expect(new Set(retentions)).toEqual(new Set([30]));
  });

  it.each([
    ...routes.map((route) => [route.handler, routeEntry(route)] as const),
    [AUTHORIZER, AUTHORIZER_ENTRY] as const,
    [OFFBOARDING, OFFBOARDING_ENTRY] as const,
    [EXPIRY_NOTICES, EXPIRY_NOTICES_ENTRY] as const,
    [SECRET_VERSION_CLEANUP, SECRET_VERSION_CLEANUP_ENTRY] as const,
  ])('bundles %s from an entry that exports `handler`', (name, entry) => {
    const background: Record<string, () => { entry: string }> = {
      [AUTHORIZER]: () => synthesized.stack.serviceApi.authorizerFunction,
      [OFFBOARDING]: offboardingFunction,
      [EXPIRY_NOTICES]: expiryNoticesFunction,
      [SECRET_VERSION_CLEANUP]: secretVersionCleanupFunction,
    };
    const fn = background[name]?.() ?? routeFunction(name);
    expect(fn.entry).toBe(entry);
    // Read, not imported: importing a handler module would parse its environment at module scope.
    const source = fs.readFileSync(path.join(PROJECT_ROOT, entry), 'utf8');
    expect(source).toMatch(/^export const handler\b/m);
  });

  describe('bundles as the bench builds them', () => {
    const measured = [
      ...routes.map((route) => [route.handler, routeEntry(route)] as const),
      [AUTHORIZER, AUTHORIZER_ENTRY] as const,
    ];
    let outDir = '';
    /** The bench's bundle of a function, from the one esbuild run below. */
    const benchBundle = (name: string) => fs.readFileSync(path.join(outDir, name, 'index.js'));

    // One esbuild run for every entry: each is bundled on its own as when built alone (the first test
    // holds it to that), while the libraries they share are parsed once, not once per function.
    beforeAll(async () => {
      outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bundle-'));
      const { entryPoints: _entry, outfile: _file, ...options } = esbuildOptions('', '');
      await build({
        ...options,
        entryPoints: Object.fromEntries(
          measured.map(([name, entry]) => [`${name}/index`, path.join(PROJECT_ROOT, entry)]),
        ),
        outdir: outDir,
      });
    });
    afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

    it('builds a function in that run byte for byte as when it is built alone, as `npm run bench` builds it', async () => {
      const alone = path.join(outDir, 'alone', 'index.js');
      await build(esbuildOptions(path.join(PROJECT_ROOT, AUTHORIZER_ENTRY), alone));
      expect(fs.readFileSync(alone).equals(benchBundle(AUTHORIZER))).toBe(true);
    });

    it.each(measured)('ships for %s byte for byte the bundle `npm run bench` measures', (name) => {
      const fn = name === AUTHORIZER ? synthesized.stack.serviceApi.authorizerFunction : routeFunction(name);
      const code = propertiesOf(resourcesOf('AWS::Lambda::Function')[logicalId(fn.lambdaFunction)] as Json)
        .Code as Json;
      const assetHash = (code.S3Key as string).replace(/\.zip$/, '');
      const shipped = fs.readFileSync(path.join(synthesized.assemblyDirectory, `asset.${assetHash}`, 'index.js'));
      expect(shipped.equals(benchBundle(name))).toBe(true);
    });
  });
});

describe('dashboard build', () => {
  it('ships exactly the files buildDashboard writes, built locally without Docker, next to config.json', () => {
    const deployment = propertiesOf(Object.values(resourcesOf('Custom::CDKBucketDeployment'))[0] as Json);
    const [buildKey, configKey] = deployment.SourceObjectKeys as string[];
    const folderOf = (key: string | undefined) =>
      path.join(synthesized.assemblyDirectory, `asset.${(key ?? '').replace(/\.zip$/, '')}`);
    expect(fs.readdirSync(folderOf(buildKey)).sort()).toEqual([...dashboardFiles().keys()].sort());
    expect(fs.readFileSync(path.join(folderOf(buildKey), 'index.html'), 'utf8')).toContain('/app.js');
    expect(fs.readdirSync(folderOf(configKey))).toEqual(['config.json']);
  });
});

describe('stage', () => {
  it('logs access as JSON, traces, records metrics and throttles as configured', () => {
    const accessLogsId = logicalId(synthesized.stack.serviceApi.accessLogs);
    synthesized.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: {
        DestinationArn: { 'Fn::Join': ['', Match.arrayWith([{ Ref: accessLogsId }])] },
        Format: Match.stringLikeRegexp('^\\{"requestId":"\\$context.requestId".*\\}$'),
      },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          MetricsEnabled: true,
          DataTraceEnabled: false,
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
        }),
      ],
    });
    const format = (
      propertiesOf(Object.values(resourcesOf('AWS::ApiGateway::Stage'))[0] as Json).AccessLogSetting as Json
    ).Format as string;
    expect(() => JSON.parse(format)).not.toThrow();
  });

  it('sets the account CloudWatch role that access logging needs', () => {
    synthesized.template.resourceCountIs('AWS::ApiGateway::Account', 1);
  });

  it('accepts TLS 1.2 and 1.3 only, with the enhanced policy and the strict endpoint access mode it requires', () => {
    synthesized.template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    synthesized.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
  });
});

describe('user pool', () => {
  it('is invitation-only, signs in by e-mail, offers TOTP MFA and enforces a strong password', () => {
    synthesized.template.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        DeletionProtection: 'ACTIVE',
        Policies: {
          PasswordPolicy: Match.objectLike({
            MinimumLength: 12,
            RequireLowercase: true,
            RequireUppercase: true,
            RequireNumbers: true,
            RequireSymbols: true,
          }),
        },
      }),
    });
    synthesized.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      WriteAttributes: ['name'],
    });
  });

  it('lets the dashboard client sign in with the authorization code grant only, and return to the dashboard only', () => {
    synthesized.template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const client = propertiesOf(Object.values(resourcesOf('AWS::Cognito::UserPoolClient'))[0] as Json);
    const distributionUrl = {
      'Fn::Join': [
        '',
        ['https://', { 'Fn::GetAtt': [logicalId(synthesized.stack.dashboard.distribution), 'DomainName'] }, '/'],
      ],
    };
    expect(client).toMatchObject({
      AllowedOAuthFlowsUserPoolClient: true,
      // No implicit grant (tokens in the URL), no client credentials (no user behind them).
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      CallbackURLs: [distributionUrl],
      LogoutURLs: [distributionUrl],
      SupportedIdentityProviders: ['COGNITO'],
      GenerateSecret: false,
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes' },
    });
    expect(client).not.toHaveProperty('DefaultRedirectURI');
  });

  it('gives its refresh tokens the shortest life Cognito allows, 60 minutes: the dashboard never renews a session', () => {
    const client = propertiesOf(Object.values(resourcesOf('AWS::Cognito::UserPoolClient'))[0] as Json);
    expect(client).toMatchObject({
      RefreshTokenValidity: 60,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' },
    });
  });

  it('allows SRP as its one password flow (managed login takes passwords through it) and refresh tokens', () => {
    const client = propertiesOf(Object.values(resourcesOf('AWS::Cognito::UserPoolClient'))[0] as Json);
    expect(client.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
  });
});

describe('outputs', () => {
  it('exports the API URL, table name, secrets key, session issuer, alarm topic, dashboards, audit bus, dead-letter queues, the Cognito ids and sign-in domain, and the web ACL', () => {
    expect(Object.keys(synthesized.template.findOutputs('*')).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'AuditArchiveName',
        'AuditDeadLetterQueueUrl',
        'AuditEventBusArn',
        'AuditEventBusName',
        'CognitoDomainUrl',
        'DashboardName',
        'DashboardUrl',
        'ExpiryNoticeDeadLetterQueueUrl',
        'SecretsKeyArn',
        'SecretVersionCleanupDeadLetterQueueUrl',
        'SessionIssuer',
        'TableName',
        'UserPoolClientId',
        'UserPoolId',
        'WebAclArn',
      ].sort(),
    );
  });
});

describe('cdk-nag', () => {
  const NAG_PACKS = ['AwsSolutions', 'Serverless'];

  it('checks the app with the AwsSolutions and Serverless packs (checks/context.ts shows each one catches a finding)', () => {
    expect(synthesized.nagPacks).toEqual(NAG_PACKS);
  });

  it.each(NAG_PACKS)('reports no unacknowledged %s finding, error or warning', (pack) => {
    expect(synthesized.findings.filter((finding) => finding.plugin === pack)).toEqual([]);
  });

  it('reports no other validation finding (CDK warnings, template rules)', () => {
    expect(synthesized.findings).toEqual([]);
  });

  it('acknowledges exactly these rules, each with a reason', () => {
    const { acknowledgements } = synthesized;
    expect([...new Set(acknowledgements.map((acknowledgement) => acknowledgement.id))].sort()).toEqual(
      [
        'AwsSolutions-APIG2',
        'AwsSolutions-APIG4',
        'AwsSolutions-CFR1',
        'AwsSolutions-CFR2',
        'AwsSolutions-CFR3',
        'AwsSolutions-CFR4',
        'AwsSolutions-COG2',
        'AwsSolutions-COG4',
        'AwsSolutions-COG8',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'AwsSolutions-IAM5[Action::s3:List*]',
        // The dashboard bucket's objects, named by the parameter that passes its ARN to DashboardDeploymentStack.
        `AwsSolutions-IAM5[Resource::<referenceto${Names.nodeUniqueId((synthesized.stack.dashboard.bucket.node.defaultChild as CfnResource).node)}Arn>/*]`,
        `AwsSolutions-IAM5[Resource::<${logicalId(expiryNoticesFunction().lambdaFunction)}.Arn>:*]`,
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-L1',
        'AwsSolutions-SQS3',
        'Serverless-LambdaDLQ',
        'Serverless-LambdaEventSourceMappingDestination',
        'Serverless-LambdaLatestVersion',
        'Serverless-LambdaTracing',
        'Serverless-SQSRedrivePolicy',
      ].sort(),
    );
    // A stated reason, not a placeholder such as "n/a" or "ok".
    expect(acknowledgements.filter((acknowledgement) => acknowledgement.reason.trim().length < 40)).toEqual([]);
  });

  it('keeps the premise of the dead-letter acknowledgement: only API Gateway invokes those functions, synchronously', () => {
    // A DLQ or on-failure destination only matters for asynchronous invocations and event source mappings.
    // The stream's mapping (checks/secret-version-cleanup.ts) has its own on-failure destination; the
    // webhook queues' mappings (checks/webhook-delivery.ts) leave a failed message in its queue, whose
    // redrive moves it on.
    const webhookFunction = { Ref: logicalId(synthesized.stack.webhookDelivery.function.lambdaFunction) };
    const mappings = Object.values(resourcesOf('AWS::Lambda::EventSourceMapping'))
      .map(propertiesOf)
      .filter((mapping) => JSON.stringify(mapping.FunctionName) !== JSON.stringify(webhookFunction));
    expect(mappings).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: logicalId(secretVersionCleanupFunction().lambdaFunction) },
        DestinationConfig: {
          OnFailure: {
            Destination: { 'Fn::GetAtt': [logicalId(synthesized.stack.secretVersionCleanup.deadLetterQueue), 'Arn'] },
          },
        },
      }),
    ]);
    synthesized.template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 0);
    synthesized.template.resourceCountIs('AWS::Lambda::Url', 0);
    const offboarding = { 'Fn::GetAtt': [logicalId(offboardingFunction().lambdaFunction), 'Arn'] };
    const permissions = Object.values(resourcesOf('AWS::Lambda::Permission')).map(propertiesOf);
    const invokedByGateway = permissions.filter((p) => JSON.stringify(p.FunctionName) !== JSON.stringify(offboarding));
    expect(invokedByGateway.length).toBeGreaterThanOrEqual(routes.length + 1);
    expect(new Set(invokedByGateway.map((permission) => permission.Principal))).toEqual(
      new Set(['apigateway.amazonaws.com']),
    );
    // The two functions invoked asynchronously have their own dead-letter queue: an EventBridge rule invokes
    // the offboarding function (a resource policy), Scheduler the expiry-notice function (through its role,
    // so no permission names it).
    expect(permissions.filter((p) => JSON.stringify(p.FunctionName) === JSON.stringify(offboarding))).toEqual([
      expect.objectContaining({ Principal: 'events.amazonaws.com' }),
    ]);
    const expiryNotices = { 'Fn::GetAtt': [logicalId(expiryNoticesFunction().lambdaFunction), 'Arn'] };
    expect(permissions.filter((p) => JSON.stringify(p.FunctionName) === JSON.stringify(expiryNotices))).toEqual([]);
    const withoutDeadLetterQueue = synthesized.acknowledgements
      .filter((acknowledgement) => acknowledgement.id === 'Serverless-LambdaDLQ')
      .map((acknowledgement) => acknowledgement.constructPath);
    expect(withoutDeadLetterQueue).not.toContain(offboardingFunction().lambdaFunction.node.path);
    expect(withoutDeadLetterQueue).not.toContain(expiryNoticesFunction().lambdaFunction.node.path);
    // Acknowledged with the stream's reason: its mapping keeps what fails.
    const cleanup = synthesized.acknowledgements.find(
      (acknowledgement) =>
        acknowledgement.id === 'Serverless-LambdaDLQ' &&
        acknowledgement.constructPath === secretVersionCleanupFunction().lambdaFunction.node.path,
    );
    expect(cleanup?.reason).toContain('on-failure destination');
  });
});
