import type { ServiceConfig } from '@lib/config';
import { DataStore } from '@lib/constructs/data-store';
import { ServiceApi, type SessionIssuerSettings } from '@lib/constructs/service-api';
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

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API', value: this.serviceApi.api.url });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table', value: this.dataStore.table.tableName });
    new CfnOutput(this, 'SessionIssuer', { description: 'Issuer of accepted session JWTs', value: session.issuer });
    if (users) {
      new CfnOutput(this, 'UserPoolId', { description: 'Cognito user pool', value: users.userPool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', {
        description: 'Cognito app client of the dashboard (the session audience)',
        value: users.client.userPoolClientId,
      });
    }
  }
}
