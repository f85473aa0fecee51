import type { TableAccess } from '@contract/table-access';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';

/**
 * Grants exactly the declared actions, each on the table or an index and only on the partitions its
 * grant names: `dynamodb:LeadingKeys` must start with one of their prefixes. `ForAllValues` is the
 * form AWS documents for this key (a request names one or more partition keys, and every one must
 * match). No wildcard action, no Scan.
 */
export const grantTableAccess = (role: IRole, table: ITable, access: TableAccess): void => {
  for (const grant of access) {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [...grant.actions],
        resources: [grant.index ? `${table.tableArn}/index/${grant.index}` : table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': grant.partitions.map((prefix) => `${prefix}*`) },
        },
      }),
    );
  }
};
