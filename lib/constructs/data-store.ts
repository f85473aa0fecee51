import { tableSchema } from '@contract/table-schema';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * The service's data: the single table and the KMS key that wraps each project's data key. Both live
 * apart from the API and functions and are retained (the table deletion-protected too), so no code
 * change or stack delete can take data with it: without the key, every secret in the table is
 * unreadable. The dashboard's users are kept apart too, in the `UserDirectory`.
 */
export class DataStore extends Construct {
  /** The service's one table, built from `tableSchema`. */
  readonly table: Table;
  /**
   * The customer-managed key that wraps each project's data key, under the encryption context
   * `{projectId}`. Its key policy is CDK's default (the account may grant its use through IAM); each
   * function that needs it is granted its calls on its own role (`grantKeyUse`).
   */
  readonly secretsKey: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSchema.timeToLiveAttribute,
      // Each new item whole: the audit events reach the event bus from the stream (AuditStream).
      stream: StreamViewType[tableSchema.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Secrets Service: wraps the data key of each project (encryption context projectId)',
      alias: `alias/${Stack.of(this).stackName}/secrets`,
      // Rotation keeps every earlier key material, so data keys wrapped before a rotation still unwrap.
      enableKeyRotation: true,
      // Retained on stack delete and replace: a deleted key takes every secret with it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableSchema.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        ...(index.projection === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      });
    }
  }
}
