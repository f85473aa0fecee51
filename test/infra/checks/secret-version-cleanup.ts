import { secretVersionCleanupTableAccess } from '@contract/table-access';
import {
  expiredSecretHeadFilter,
  restartedSecretHeadFilter,
  secretVersionCleanupFilters,
} from '@lib/constructs/secret-version-cleanup';
import {
  actionsOf,
  type PolicyStatement,
  type Synthesized,
  statementsOfRole as statementsOfTemplateRole,
  synthesize,
} from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of the cleanup of deleted secrets' versions: the event source mapping on the table's
// stream (its filter, bisecting, dead-letter destination), and the function's permissions. Synthesized
// without bundling.

type Json = Record<string, unknown>;

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const resourcesOf = (type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;
const logicalId = (construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const getAtt = (construct: IConstruct, attribute: string) => ({ 'Fn::GetAtt': [logicalId(construct), attribute] });
const cleanup = () => synthesized.stack.secretVersionCleanup;
const mapping = (): Json => {
  // The mappings of the table's stream (the webhook queues' have their own check).
  const all = Object.values(resourcesOf('AWS::Lambda::EventSourceMapping')).filter(
    (resource) => ((resource as Json).Properties as Json).StartingPosition !== undefined,
  );
  expect(all).toHaveLength(1);
  return (all[0] as Json).Properties as Json;
};
const statementsOfRole = (roleLogicalId: string) => statementsOfTemplateRole(synthesized.template, roleLogicalId);
/** A statement's actions, sorted. */
const sortedActionsOf = (statement: PolicyStatement): string[] => actionsOf(statement).slice().sort();

// --- What Lambda's event filtering would pass, by its documented rules (exact values and `prefix`) ----

type Pattern = { readonly [key: string]: Pattern | readonly unknown[] };

/** Whether one value matches one of a pattern's values: an exact string, or `{prefix}`. */
const matchesValue = (value: unknown, allowed: readonly unknown[]): boolean =>
  allowed.some((rule) =>
    typeof rule === 'object' && rule !== null && 'prefix' in rule
      ? typeof value === 'string' && value.startsWith((rule as { prefix: string }).prefix)
      : value === rule,
  );

/** Whether a record matches a pattern: every field the pattern names must be there and match. */
const matches = (record: unknown, pattern: Pattern): boolean =>
  Object.entries(pattern).every(([field, rule]) => {
    const value = typeof record === 'object' && record !== null ? (record as Json)[field] : undefined;
    return Array.isArray(rule) ? matchesValue(value, rule) : value !== undefined && matches(value, rule as Pattern);
  });

const TTL = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
const record = (eventName: string, PK: string, SK: string, userIdentity?: unknown, version?: number) => ({
  eventName,
  ...(userIdentity !== undefined && { userIdentity }),
  dynamodb: {
    Keys: { PK: { S: PK }, SK: { S: SK } },
    ...(version !== undefined && { NewImage: { version: { N: String(version) } } }),
  },
});

describe('the secret-version cleanup', () => {
  it('reads the table stream from its oldest record, halving a failed batch, and keeps what fails in its encrypted queue', () => {
    expect(mapping()).toMatchObject({
      EventSourceArn: getAtt(synthesized.stack.dataStore.table, 'StreamArn'),
      FunctionName: { Ref: logicalId(cleanup().function.lambdaFunction) },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: expect.any(Number),
      MaximumRecordAgeInSeconds: expect.any(Number),
      DestinationConfig: { OnFailure: { Destination: getAtt(cleanup().deadLetterQueue, 'Arn') } },
    });
    // Bounded: never retried for the stream's whole day, which would hold back its shard.
    expect(mapping().MaximumRetryAttempts).toBeLessThanOrEqual(10);
    expect(mapping().MaximumRecordAgeInSeconds).toBeLessThan(24 * 3600);
    expect(resourcesOf('AWS::SQS::Queue')[logicalId(cleanup().deadLetterQueue)]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
    });
  });

  it("passes only TTL removals of a secret's head: the filter of the mapping is the construct's", () => {
    const filters = (mapping().FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((filter) => JSON.parse(filter.Pattern))).toEqual(secretVersionCleanupFilters);
    const pattern = expiredSecretHeadFilter as unknown as Pattern;
    const head = ['SECRETS#prj_AAAAAAAAAAAAAAAA#development', 'SECRET#DATABASE_URL'] as const;
    expect(matches(record('REMOVE', ...head, TTL), pattern)).toBe(true);
    // A caller's delete carries no userIdentity; another service's removal is not TTL's.
    expect(matches(record('REMOVE', ...head), pattern)).toBe(false);
    expect(matches(record('REMOVE', ...head, { type: 'Service', principalId: 'other.amazonaws.com' }), pattern)).toBe(
      false,
    );
    expect(matches(record('INSERT', ...head, TTL), pattern)).toBe(false);
    expect(matches(record('MODIFY', ...head, TTL), pattern)).toBe(false);
    // Other items that expire: a version, an audit event.
    expect(matches(record('REMOVE', head[0], 'VERSION#DATABASE_URL#abc#0000000001', TTL), pattern)).toBe(false);
    expect(matches(record('REMOVE', 'AUDIT#user-1', '2026-01-01T00:00:00.000Z#e1', TTL), pattern)).toBe(false);
    expect(matches(record('REMOVE', 'PROJECT#prj_A', 'SECRET#X', TTL), pattern)).toBe(false);
  });

  it('passes a head replaced by version 1 of a new life, and no other write of a head', () => {
    const pattern = restartedSecretHeadFilter as unknown as Pattern;
    const head = ['SECRETS#prj_AAAAAAAAAAAAAAAA#development', 'SECRET#DATABASE_URL'] as const;
    expect(matches(record('MODIFY', ...head, undefined, 1), pattern)).toBe(true);
    expect(matches(record('MODIFY', ...head, undefined, 2), pattern)).toBe(false);
    expect(matches(record('MODIFY', ...head, undefined, 10), pattern)).toBe(false);
    expect(matches(record('INSERT', ...head, undefined, 1), pattern)).toBe(false);
    expect(matches(record('MODIFY', head[0], 'VERSION#DATABASE_URL#abc#0000000001', undefined, 1), pattern)).toBe(
      false,
    );
    expect(matches(record('MODIFY', 'PROJECT#prj_A', 'SECRET#X', undefined, 1), pattern)).toBe(false);
  });

  it('may only query, read and batch-delete in the secrets partitions, read this stream, and fill its own queue', () => {
    const tableArn = getAtt(synthesized.stack.dataStore.table, 'Arn');
    const statements = statementsOfRole(logicalId(cleanup().function.role));
    const dynamo = statements.filter((statement) =>
      sortedActionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamo).toEqual([
      {
        Effect: 'Allow',
        Action: secretVersionCleanupTableAccess.flatMap((grant) => grant.actions),
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SECRETS#*'] } },
      },
      {
        Effect: 'Allow',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        Resource: getAtt(synthesized.stack.dataStore.table, 'StreamArn'),
      },
    ]);
    expect(sortedActionsOf(dynamo[0] as PolicyStatement)).toEqual([
      'dynamodb:BatchWriteItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
    const others = statements.filter((statement) => !dynamo.includes(statement));
    expect(others.map((statement) => ({ actions: sortedActionsOf(statement), resource: statement.Resource }))).toEqual([
      { actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resource: getAtt(cleanup().function.logGroup, 'Arn') },
      { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resource: '*' },
      {
        actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
        resource: getAtt(cleanup().deadLetterQueue, 'Arn'),
      },
    ]);
  });

  it('gets the table name but no secrets key', () => {
    const properties = resourcesOf('AWS::Lambda::Function')[logicalId(cleanup().function.lambdaFunction)]
      ?.Properties as Json;
    const variables = (properties.Environment as { Variables: Json }).Variables;
    expect(variables.TABLE_NAME).toEqual({ Ref: logicalId(synthesized.stack.dataStore.table) });
    expect(variables).not.toHaveProperty('SECRETS_KEY_ID');
  });
});
