import { tableSchema } from '@contract/table-schema';
import type { ServiceConfig } from '@lib/config';
import { DataStore } from '@lib/constructs/data-store';
import { Observability } from '@lib/constructs/observability';
import { Offboarding } from '@lib/constructs/offboarding';
import { ServiceApi, type SessionIssuerSettings } from '@lib/constructs/service-api';
import { WebAcl } from '@lib/constructs/web-acl';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** Properties of the {@link ServiceStack}. */
export interface ServiceStackProps extends StackProps {
  /** The validated configuration (see `loadConfig`). */
  readonly config: ServiceConfig;
}

/**
 * The Secrets Service: the stateful {@link DataStore} (table, user pool) and the stateless
 * {@link ServiceApi} (REST API, authorizer, one function per route). Environment-agnostic, so it
 * synthesizes offline without credentials.
 */
export class ServiceStack extends Stack {
  /** Table and, unless sessions come from an external issuer, the user pool. */
  readonly dataStore: DataStore;
  /** API, authorizer and route functions. */
  readonly serviceApi: ServiceApi;
  /** Alarms, their topic and the dashboard. */
  readonly observability: Observability;
  /** The WAF web ACL in front of the stage, with `waf=true`. */
  readonly webAcl: WebAcl | undefined;
  /** Offboarding on the user pool's disable and delete calls, with the stack's own Cognito pool. */
  readonly offboarding: Offboarding | undefined;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.dataStore = new DataStore(this, 'DataStore', { createUserPool: config.sessionIssuer.kind === 'cognito' });
    const users = this.dataStore.users;

    let session: SessionIssuerSettings;
    if (config.sessionIssuer.kind === 'external') {
      session = config.sessionIssuer;
    } else if (users) {
      session = { issuer: users.issuer, audience: users.client.userPoolClientId };
    } else {
      throw new Error('The Cognito session issuer needs the user pool');
    }

    this.serviceApi = new ServiceApi(this, 'ServiceApi', { config, table: this.dataStore.table, session });
    const stage = this.serviceApi.api.deploymentStage;
    this.offboarding = users
      ? new Offboarding(this, 'Offboarding', {
          table: this.dataStore.table,
          logRetention: config.logRetention,
          logLevel: config.logLevel,
        })
      : undefined;

    this.webAcl = config.waf ? new WebAcl(this, 'WebAcl', { stage, rateLimit: config.wafRateLimit }) : undefined;

    this.observability = new Observability(this, 'Observability', {
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
    });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API', value: this.serviceApi.api.url });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table', value: this.dataStore.table.tableName });
    new CfnOutput(this, 'SessionIssuer', { description: 'Issuer of accepted session JWTs', value: session.issuer });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies (subscribe on-call here)',
      value: this.observability.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', {
      description: 'CloudWatch dashboard of the API, authorizer, functions and table',
      value: this.observability.dashboard.dashboardName,
    });
    if (this.webAcl) {
      new CfnOutput(this, 'WebAclArn', {
        description: 'WAF web ACL of the API stage',
        value: this.webAcl.webAcl.attrArn,
      });
    }
    if (users) {
      new CfnOutput(this, 'UserPoolId', { description: 'Cognito user pool', value: users.userPool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', {
        description: 'Cognito app client of the dashboard (the session audience)',
        value: users.client.userPoolClientId,
      });
    }
  }
}
