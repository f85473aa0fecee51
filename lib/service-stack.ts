import { tableSchema } from '@contract/table-schema';
import type { ServiceConfig } from '@lib/config';
import { AuditStream } from '@lib/constructs/audit-stream';
import { DashboardSite } from '@lib/constructs/dashboard-site';
import { DataStore } from '@lib/constructs/data-store';
import { ExpiryNotices } from '@lib/constructs/expiry-notices';
import { Observability } from '@lib/constructs/observability';
import { Offboarding } from '@lib/constructs/offboarding';
import { SecretVersionCleanup } from '@lib/constructs/secret-version-cleanup';
import { ServiceApi, type SessionIssuerSettings } from '@lib/constructs/service-api';
import { UserDirectory } from '@lib/constructs/user-directory';
import { WebAcl } from '@lib/constructs/web-acl';
import { WebhookDelivery } from '@lib/constructs/webhook-delivery';
import { CfnOutput, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** Properties of the {@link ServiceStack}. */
export interface ServiceStackProps extends StackProps {
  /** The validated configuration (see `loadConfig`). */
  readonly config: ServiceConfig;
}

/**
 * The Secrets Service: the stateful {@link DataStore} (the table) and {@link UserDirectory} (the user
 * pool), the stateless
 * {@link ServiceApi} (REST API, authorizer, one function per route) and the web dashboard
 * ({@link DashboardSite}: S3 and CloudFront). Environment-agnostic, so it synthesizes offline without
 * credentials.
 */
export class ServiceStack extends Stack {
  /** The table. */
  readonly dataStore: DataStore;
  /** The user pool, its sign-in domain and the dashboard's app client; none with an external session issuer. */
  readonly users: UserDirectory | undefined;
  /** API, authorizer and route functions. */
  readonly serviceApi: ServiceApi;
  /** The audit events' bus, its archive and the pipe from the table's stream. */
  readonly auditStream: AuditStream;
  /** Alarms, their topic and the dashboard. */
  readonly observability: Observability;
  /** The WAF web ACL in front of the stage (the per-credential limit among its rules); none with `waf=false`. */
  readonly webAcl: WebAcl | undefined;
  /** Offboarding on the user pool's disable and delete calls, with the stack's own Cognito pool. */
  readonly offboarding: Offboarding | undefined;
  /** The hourly `token.expiring` notices: their schedule, function and dead-letter queue. */
  readonly expiryNotices: ExpiryNotices;
  /** Webhooks: the audit bus's events of a project, through the attempts' queues, to their receivers. */
  readonly webhookDelivery: WebhookDelivery;
  /** The web dashboard: its bucket, distribution and deployment. */
  readonly dashboard: DashboardSite;
  /** The deletion of a deleted secret's versions once its head expires: stream mapping, function, dead-letter queue. */
  readonly secretVersionCleanup: SecretVersionCleanup;
  /** The dashboard's origin: `dashboardOrigin`, else the distribution's `https://<id>.cloudfront.net`. */
  readonly dashboardOrigin: string;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config } = props;

    // The dashboard's distribution comes first: the app client's callback and the API's CORS name its origin.
    this.dashboard = new DashboardSite(this, 'Dashboard', { logRetention: config.logRetention });
    this.dashboardOrigin = config.dashboardOrigin ?? this.dashboard.distributionOrigin;
    const dashboardUrl = `${this.dashboardOrigin}/`;

    this.dataStore = new DataStore(this, 'DataStore');
    // The pool is created in the data store's scope, at the construct path it has always had: its logical
    // IDs derive from that path, and new ones would replace the pool, and lose every user, on the next deploy.
    this.users =
      config.sessionIssuer.kind === 'cognito'
        ? new UserDirectory(this.dataStore, 'UserPool', {
            dashboardUrl,
            domainPrefix: config.sessionIssuer.domainPrefix,
          })
        : undefined;
    const { users } = this;

    let session: SessionIssuerSettings;
    if (config.sessionIssuer.kind === 'external') {
      session = config.sessionIssuer;
    } else if (users) {
      session = { issuer: users.issuer, audience: users.client.userPoolClientId };
    } else {
      throw new Error('The Cognito session issuer needs the user pool');
    }

    // The functions no route calls (offboarding, expiry notices, secret-version cleanup) and the authorizer's,
    // with their roles, log groups and triggers, in a nested stack of their own: the root template keeps its
    // room for the API's methods, which cannot move. The dead-letter queues stay in the root stack, as every
    // stateful resource, and so does the authorizer (with its permission), beside the API.
    const background = new NestedStack(this, 'BackgroundStack', {
      description: "Secrets Service: the background functions and the authorizer's function",
    });

    this.serviceApi = new ServiceApi(this, 'ServiceApi', {
      config,
      table: this.dataStore.table,
      secretsKey: this.dataStore.secretsKey,
      session,
      dashboardOrigin: this.dashboardOrigin,
      authorizerFunctionScope: background,
    });
    const { api } = this.serviceApi;
    const stage = api.deploymentStage;

    // `logout_uri` is a query value, so it is escaped. CloudFormation cannot escape a deploy-time value, but
    // the distribution's host name needs no escaping (letters, digits, dots, hyphens): only the rest is.
    const escapedDashboardUrl =
      config.dashboardOrigin === undefined
        ? `${encodeURIComponent('https://')}${this.dashboard.distribution.distributionDomainName}${encodeURIComponent('/')}`
        : encodeURIComponent(dashboardUrl);
    this.dashboard.publish({
      config: {
        apiUrl: api.url,
        issuer: session.issuer,
        clientId: session.audience,
        // Cognito's discovery document names no end_session_endpoint; its managed login signs out here.
        ...(users && {
          signOutUrl: `${users.domainUrl}/logout?client_id=${users.client.userPoolClientId}&logout_uri=${escapedDashboardUrl}`,
        }),
      },
      connectTo: [
        // Built from the RestApi alone: api.url names the stage, whose deployment waits for every method and
        // so for the route functions, whose environment names the distribution this policy belongs to.
        `https://${api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`,
        // Discovery and keys at the issuer; with Cognito, the token endpoint at the sign-in domain.
        ...(users ? [users.issuerOrigin, users.domainUrl] : [new URL(session.issuer).origin]),
      ],
      // Its own nested stack: it names the stage (api.url), which waits for every method and so for the
      // authorizer's function in BackgroundStack; in that stack it would make the two templates a cycle.
      deploymentScope: new NestedStack(this, 'DashboardDeploymentStack', {
        description: "Secrets Service: the deployment of the web dashboard's build and config.json",
      }),
    });
    this.offboarding = users
      ? new Offboarding(this, 'Offboarding', {
          statelessScope: background,
          table: this.dataStore.table,
          logRetention: config.logRetention,
          logLevel: config.logLevel,
          auditRetentionDays: config.auditRetentionDays,
        })
      : undefined;

    this.expiryNotices = new ExpiryNotices(this, 'ExpiryNotices', {
      statelessScope: background,
      table: this.dataStore.table,
      logRetention: config.logRetention,
      logLevel: config.logLevel,
      auditRetentionDays: config.auditRetentionDays,
    });

    this.secretVersionCleanup = new SecretVersionCleanup(this, 'SecretVersionCleanup', {
      statelessScope: background,
      table: this.dataStore.table,
      logRetention: config.logRetention,
      logLevel: config.logLevel,
      auditRetentionDays: config.auditRetentionDays,
    });

    this.auditStream = new AuditStream(this, 'AuditStream', {
      table: this.dataStore.table,
      retentionDays: config.auditRetentionDays,
      logRetention: config.logRetention,
    });

    this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
      // Its function and wiring in a nested stack of their own, which would take the root template past
      // the 250 resources it is held to; its queues in the root stack, as every stateful resource.
      statelessScope: new NestedStack(this, 'WebhookDeliveryStack'),
      table: this.dataStore.table,
      logRetention: config.logRetention,
      logLevel: config.logLevel,
      auditRetentionDays: config.auditRetentionDays,
      eventBus: this.auditStream.eventBus,
      secretsKey: this.dataStore.secretsKey,
    });

    this.webAcl = config.waf
      ? new WebAcl(this, 'WebAcl', {
          stage,
          rateLimit: config.wafRateLimit,
          rateLimitPerMinute: config.rateLimitPerMinute,
          dashboardOrigin: this.dashboardOrigin,
        })
      : undefined;

    this.observability = new Observability(this, 'Observability', {
      // The alarms and their metric filter in a nested stack of their own, for the root template's room;
      // the topic and the dashboard in the root stack.
      statelessScope: new NestedStack(this, 'AlarmsStack'),
      stage,
      accessLogs: this.serviceApi.accessLogs,
      authorizer: { name: 'authorizer', lambdaFunction: this.serviceApi.authorizerFunction.lambdaFunction },
      routeFunctions: [...this.serviceApi.routeFunctions].map(([name, fn]) => ({
        name,
        lambdaFunction: fn.lambdaFunction,
      })),
      table: this.dataStore.table,
      indexNames: tableSchema.globalSecondaryIndexes.map((index) => index.indexName),
      alarmEmail: config.alarmEmail,
      webAcl: this.webAcl,
      auditDeadLetterQueue: this.auditStream.deadLetterQueue,
      auditEventBusName: this.auditStream.eventBus.eventBusName,
      expiryNoticeDeadLetterQueue: this.expiryNotices.deadLetterQueue,
      secretVersionCleanupDeadLetterQueue: this.secretVersionCleanup.deadLetterQueue,
      webhookDeadLetterQueue: this.webhookDelivery.deadLetterQueue,
    });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API', value: api.url });
    new CfnOutput(this, 'DashboardUrl', { description: 'The web dashboard', value: dashboardUrl });
    if (config.dashboardOrigin !== undefined) {
      new CfnOutput(this, 'DashboardDistributionDomainName', {
        description: "The dashboard distribution's own host name, for the DNS of the custom domain in front of it",
        value: this.dashboard.distribution.distributionDomainName,
      });
    }
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table', value: this.dataStore.table.tableName });
    new CfnOutput(this, 'SecretsKeyArn', {
      description: "KMS key that wraps each project's data key (retained: deleting it loses every secret)",
      value: this.dataStore.secretsKey.keyArn,
    });
    new CfnOutput(this, 'SessionIssuer', { description: 'Issuer of accepted session JWTs', value: session.issuer });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies (subscribe on-call here)',
      value: this.observability.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', {
      description: 'CloudWatch dashboard of the API, authorizer, functions and table',
      value: this.observability.dashboard.dashboardName,
    });
    new CfnOutput(this, 'AuditEventBusName', {
      description: 'EventBridge bus of the audit events (source secrets-service, detail-type the event type)',
      value: this.auditStream.eventBus.eventBusName,
    });
    new CfnOutput(this, 'AuditEventBusArn', {
      description: 'ARN of the audit event bus',
      value: this.auditStream.eventBus.eventBusArn,
    });
    new CfnOutput(this, 'AuditArchiveName', {
      description: 'Archive of every audit event on the bus, for replays',
      value: this.auditStream.archive.archiveName,
    });
    new CfnOutput(this, 'AuditDeadLetterQueueUrl', {
      description: 'Where the audit pipe describes the stream records it could not deliver to the bus',
      value: this.auditStream.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'ExpiryNoticeDeadLetterQueueUrl', {
      description: 'Where the hourly expiry-notice runs that failed every attempt are kept',
      value: this.expiryNotices.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'SecretVersionCleanupDeadLetterQueueUrl', {
      description: "Where the stream batches are described whose deleted secrets' ended versions could not be deleted",
      value: this.secretVersionCleanup.deadLetterQueue.queueUrl,
    });
    if (this.webAcl) {
      new CfnOutput(this, 'WebAclArn', {
        description: 'WAF web ACL of the API stage',
        value: this.webAcl.webAcl.attrArn,
      });
    }
    if (users) {
      new CfnOutput(this, 'UserPoolId', { description: 'Cognito user pool', value: users.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', {
        description: 'Cognito app client of the dashboard (the session audience)',
        value: users.client.userPoolClientId,
      });
      new CfnOutput(this, 'CognitoDomainUrl', {
        description: "Cognito's sign-in domain (managed login) of the dashboard's users",
        value: users.domainUrl,
      });
    }
  }
}
