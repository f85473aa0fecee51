import { tableSchema } from '@contract/table-schema';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** Properties of the {@link DataStore}. */
export interface DataStoreProps {
  /** Whether to create the Cognito user pool that issues dashboard sessions (false with an external issuer). */
  readonly createUserPool: boolean;
}

/** The Cognito pool and its dashboard client, when the stack is its own session issuer. */
export interface UserDirectory {
  /** The user pool. */
  readonly userPool: UserPool;
  /** The dashboard's app client (public, no secret). */
  readonly client: UserPoolClient;
  /** `iss` of the pool's tokens: `https://cognito-idp.<region>.amazonaws.com/<poolId>`. */
  readonly issuer: string;
}

/**
 * The stateful resources: the single table and, by default, the user pool. They live apart from the
 * API and functions and are retained and deletion-protected, so no code change or stack delete can
 * take data with it.
 */
export class DataStore extends Construct {
  /** The service's one table, built from `tableSchema`. */
  readonly table: Table;
  /** The user directory, or undefined when sessions come from an external issuer. */
  readonly users: UserDirectory | undefined;

  constructor(scope: Construct, id: string, props: DataStoreProps) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSchema.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableSchema.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        // The lists return whole items; ALL spares a second read per row.
        projectionType: ProjectionType.ALL,
      });
    }

    this.users = props.createUserPool ? this.createUserDirectory() : undefined;
  }

  private createUserDirectory(): UserDirectory {
    const userPool = new UserPool(this, 'UserPool', {
      // Dashboard users are invited by an administrator.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // Memberships are found by e-mail: a changed address stays unused until it is verified.
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional with TOTP so that an administrator can invite users before they enrol a device; required MFA is a later decision per deployment.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan (threat protection) is billed per monthly active user; Essentials is the default for this service and can be raised per deployment.',
      },
    );

    const client = userPool.addClient('DashboardClient', {
      // A browser dashboard cannot keep a secret.
      generateSecret: false,
      authFlows: { userSrp: true },
      preventUserExistenceErrors: true,
      // CDK's defaults would enable the implicit and code grants with an example.com callback; the dashboard
      // signs in through the SRP flow above, and a grant it does not use is only a way in for someone else.
      disableOAuth: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // Users may change their display name, never their e-mail, through the dashboard.
      writeAttributes: new ClientAttributes().withStandardAttributes({ fullname: true }),
    });

    const { region, urlSuffix } = Stack.of(this);
    return { userPool, client, issuer: `https://cognito-idp.${region}.${urlSuffix}/${userPool.userPoolId}` };
  }
}
