import { ConfigError, loadConfig } from '@lib/config';
import { type Synthesized, synthesize } from '@test/infra/synth';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';

const configFrom = (context: Record<string, unknown>) => loadConfig(new App({ context }));

describe('loadConfig', () => {
  it('documents a default for every key', () => {
    expect(configFrom({})).toEqual({
      sessionIssuer: { kind: 'cognito' },
      logLevel: 'info',
      stageName: 'prod',
      throttlingRateLimit: 50,
      throttlingBurstLimit: 100,
      logRetention: 30,
      auditRetentionDays: 400,
      apiGatewayCloudWatchRole: true,
      alarmEmail: undefined,
      dashboardOrigin: undefined,
      waf: true,
      wafRateLimit: 1000,
      rateLimitPerMinute: 600,
    });
  });

  it('accepts the strings that `-c key=value` passes', () => {
    expect(
      configFrom({
        throttlingRateLimit: '20',
        throttlingBurstLimit: '40',
        logRetentionDays: '90',
        auditRetentionDays: '730',
        apiGatewayCloudWatchRole: 'false',
        logLevel: 'debug',
        stageName: 'staging_2',
        alarmEmail: 'ops@example.com',
        dashboardOrigin: 'https://dashboard.example.com',
        waf: 'false',
        wafRateLimit: '2000',
        rateLimitPerMinute: '30',
      }),
    ).toMatchObject({
      throttlingRateLimit: 20,
      throttlingBurstLimit: 40,
      logRetention: 90,
      auditRetentionDays: 730,
      apiGatewayCloudWatchRole: false,
      logLevel: 'debug',
      stageName: 'staging_2',
      alarmEmail: 'ops@example.com',
      dashboardOrigin: 'https://dashboard.example.com',
      waf: false,
      wafRateLimit: 2000,
      rateLimitPerMinute: 30,
    });
    expect(configFrom({ dashboardOrigin: 'http://localhost:5173' }).dashboardOrigin).toBe('http://localhost:5173');
    expect(configFrom({ cognitoDomainPrefix: 'secrets-acme-2' }).sessionIssuer).toEqual({
      kind: 'cognito',
      domainPrefix: 'secrets-acme-2',
    });
    for (const prefix of ['a', '7', 'a'.repeat(63)]) {
      expect(configFrom({ cognitoDomainPrefix: prefix }).sessionIssuer).toEqual({
        kind: 'cognito',
        domainPrefix: prefix,
      });
    }
    expect(configFrom({ waf: false, wafRateLimit: 10 })).toMatchObject({ waf: false, wafRateLimit: 10 });
    expect(configFrom({ auditRetentionDays: 90 }).auditRetentionDays).toBe(90);
  });

  it('reads an external issuer with its audience and JWKS URL', () => {
    expect(
      configFrom({
        sessionIssuer: 'https://idp.example.com',
        sessionAudience: 'dashboard',
        sessionJwksUrl: 'https://idp.example.com/keys',
      }).sessionIssuer,
    ).toEqual({
      kind: 'external',
      issuer: 'https://idp.example.com',
      audience: 'dashboard',
      jwksUrl: 'https://idp.example.com/keys',
    });
  });

  it.each([
    ['throttlingRateLimit', { throttlingRateLimit: 'fast' }],
    ['throttlingRateLimit', { throttlingRateLimit: -1 }],
    ['throttlingBurstLimit', { throttlingBurstLimit: '1.5' }],
    ['throttlingBurstLimit', { throttlingRateLimit: 200 }],
    ['logLevel', { logLevel: 'verbose' }],
    ['stageName', { stageName: 'my stage' }],
    ['logRetentionDays', { logRetentionDays: 42 }],
    ['auditRetentionDays', { auditRetentionDays: 89 }],
    ['auditRetentionDays', { auditRetentionDays: '30' }],
    ['auditRetentionDays', { auditRetentionDays: 'forever' }],
    ['auditRetentionDays', { auditRetentionDays: '365.5' }],
    ['auditRetentionDays', { auditRetentionDays: -400 }],
    ['apiGatewayCloudWatchRole', { apiGatewayCloudWatchRole: 'yes' }],
    ['sessionIssuer', { sessionIssuer: 'http://idp.example.com', sessionAudience: 'dashboard' }],
    ['sessionIssuer', { sessionAudience: 'dashboard' }],
    ['sessionIssuer', { sessionJwksUrl: 'https://idp.example.com/keys' }],
    ['sessionAudience', { sessionIssuer: 'https://idp.example.com' }],
    ['sessionAudience', { sessionIssuer: 'https://idp.example.com', sessionAudience: ' ' }],
    ['sessionJwksUrl', { sessionIssuer: 'https://idp.example.com', sessionAudience: 'a', sessionJwksUrl: 'keys' }],
    ['alarmEmail', { alarmEmail: 'ops' }],
    ['alarmEmail', { alarmEmail: 'ops@example.com,dev@example.com' }],
    ['alarmEmail', { alarmEmail: true }],
    ['dashboardOrigin', { dashboardOrigin: 'https://dashboard.example.com/' }],
    ['dashboardOrigin', { dashboardOrigin: 'https://dashboard.example.com/app' }],
    ['dashboardOrigin', { dashboardOrigin: 'http://dashboard.example.com' }],
    ['dashboardOrigin', { dashboardOrigin: 'dashboard.example.com' }],
    ['dashboardOrigin', { dashboardOrigin: 'https://a.example.com,https://b.example.com' }],
    ['dashboardOrigin', { dashboardOrigin: "https://dash'board.example.com" }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'Secrets' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: '-secrets' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'secrets-' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'secrets.acme' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: '' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'a'.repeat(64) }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'my-aws-login' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'amazonsecrets' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 'secrets-cognito' }],
    ['cognitoDomainPrefix', { cognitoDomainPrefix: 42 }],
    [
      'cognitoDomainPrefix',
      { sessionIssuer: 'https://idp.example.com', sessionAudience: 'dashboard', cognitoDomainPrefix: 'secrets' },
    ],
    ['waf', { waf: 'yes' }],
    ['waf', { waf: 1 }],
    ['wafRateLimit', { wafRateLimit: 'many' }],
    ['wafRateLimit', { wafRateLimit: '1.5' }],
    ['wafRateLimit', { wafRateLimit: 9 }],
    ['wafRateLimit', { wafRateLimit: '3000000000' }],
    ['rateLimitPerMinute', { rateLimitPerMinute: 'many' }],
    ['rateLimitPerMinute', { rateLimitPerMinute: '2.5' }],
    ['rateLimitPerMinute', { rateLimitPerMinute: 9 }],
    ['rateLimitPerMinute', { rateLimitPerMinute: '3000000000' }],
  ])('rejects a wrong %s with a sentence naming the key', (key, context) => {
    expect(() => configFrom(context)).toThrow(ConfigError);
    expect(() => configFrom(context)).toThrow(new RegExp(`^Invalid CDK context "${key}": .+\\.`));
  });

  it('says why an audit retention is refused', () => {
    expect(() => configFrom({ auditRetentionDays: 30 })).toThrow(
      'Invalid CDK context "auditRetentionDays": must be at least 90 days (an audit trail must outlive the investigations that read it) (got 30).',
    );
    expect(() => configFrom({ auditRetentionDays: 'forever' })).toThrow(
      'Invalid CDK context "auditRetentionDays": must be a whole number of days (got "forever").',
    );
  });

  it.each([
    ['logLevel', 'loud'],
    ['alarmEmail', 'not-an-address'],
    ['dashboardOrigin', '*'],
    ['cognitoDomainPrefix', 'aws-secrets'],
    ['waf', 'on'],
    ['wafRateLimit', '0'],
    ['rateLimitPerMinute', '0'],
    ['auditRetentionDays', '60'],
    ['auditRetentionDays', 'a year'],
  ])('stops synthesis of the app on a wrong %s', (key, value) => {
    expect(() => synthesize({ context: { [key]: value } })).toThrow(new RegExp(`Invalid CDK context "${key}"`));
  });
});

describe('with an external session issuer', () => {
  let synthesized: Synthesized;

  beforeAll(() => {
    synthesized = synthesize({
      context: {
        sessionIssuer: 'https://idp.example.com',
        sessionAudience: 'dashboard',
        sessionJwksUrl: 'https://idp.example.com/.well-known/jwks.json',
        apiGatewayCloudWatchRole: 'false',
      },
    });
  });

  it('creates no user pool', () => {
    synthesized.template.resourceCountIs('AWS::Cognito::UserPool', 0);
    synthesized.template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    expect(Object.keys(synthesized.template.findOutputs('*')).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'AuditArchiveName',
        'AuditDeadLetterQueueUrl',
        'AuditEventBusArn',
        'AuditEventBusName',
        'DashboardName',
        'DashboardUrl',
        'ExpiryNoticeDeadLetterQueueUrl',
        'SecretVersionCleanupDeadLetterQueueUrl',
        'SecretsKeyArn',
        'SessionIssuer',
        'TableName',
        'WebAclArn',
      ].sort(),
    );
  });

  it("passes the issuer, audience and JWKS URL into the authorizer's environment", () => {
    synthesized.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('authorizer'),
      Environment: {
        Variables: Match.objectLike({
          SESSION_ISSUER: 'https://idp.example.com',
          SESSION_AUDIENCE: 'dashboard',
          SESSION_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
        }),
      },
    });
  });

  it('leaves the account-wide API Gateway CloudWatch role alone when told to', () => {
    synthesized.template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('reports no unacknowledged cdk-nag finding either', () => {
    expect(synthesized.findings).toEqual([]);
  });
});

describe('the cdk-nag check', () => {
  it('catches a resource that breaks an AwsSolutions and a Serverless rule without an acknowledgement', () => {
    const { findings } = synthesize({ extend: (stack) => new Queue(stack, 'Unacknowledged') });
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          plugin: 'AwsSolutions',
          rule: 'AwsSolutions-SQS4',
          constructPath: 'SecretsService/Unacknowledged/Resource',
        }),
        expect.objectContaining({
          plugin: 'Serverless',
          rule: 'Serverless-SQSRedrivePolicy',
          constructPath: 'SecretsService/Unacknowledged/Resource',
        }),
      ]),
    );
  });

  it("reports Serverless errors and warnings of a function outside ServiceFunction, whose acknowledgements don't reach it", () => {
    const { findings } = synthesize({
      extend: (stack) =>
        new LambdaFunction(stack, 'Unacknowledged', {
          runtime: Runtime.NODEJS_22_X,
          handler: 'index.handler',
          code: Code.fromInline('exports.handler = async () => ({ statusCode: 200 });'),
        }),
    });
    const serverless = findings.filter(
      (finding) =>
        finding.plugin === 'Serverless' && finding.constructPath === 'SecretsService/Unacknowledged/Resource',
    );
    expect(serverless).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'Serverless-LambdaDLQ', severity: 'error' }),
        expect.objectContaining({ rule: 'Serverless-LambdaLatestVersion', severity: 'error' }),
        expect.objectContaining({ rule: 'Serverless-LambdaDefaultMemorySize', severity: 'error' }),
        expect.objectContaining({ rule: 'Serverless-LambdaTracing', severity: 'warning' }),
      ]),
    );
  });
});
