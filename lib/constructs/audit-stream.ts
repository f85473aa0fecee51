import { AUDIT_EVENT_SOURCE, auditEventSchema } from '@contract/audit';
import { keyPrefix, tableSchema } from '@contract/table-schema';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type Archive, EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue';

/** Properties of the {@link AuditStream}. */
export interface AuditStreamProps {
  /** The service's table, with its stream on (`tableSchema.streamViewType`). */
  readonly table: ITable;
  /** Days the bus's archive keeps each event: `auditRetentionDays`, as long as the table keeps its item. */
  readonly retentionDays: number;
  /** How long CloudWatch keeps the pipe's error log. */
  readonly logRetention: RetentionDays;
}

/** Where an audit item's attributes are in a stream record of the table. */
const NEW_IMAGE = '$.dynamodb.NewImage';

/**
 * How one field of an audit event reaches the bus's `detail`:
 * - `string`: always a DynamoDB string (`S`), sent as a plain JSON string;
 * - `attribute`: may be DynamoDB NULL, sent as its DynamoDB attribute value, `{"S": "..."}` (a list:
 *   `{"L": [{"S": "..."}]}`) or `{"NULL": true}`. An input template cannot choose between two paths, and
 *   what Pipes writes for a path that is not in the record (`.S` of a NULL) is not documented, so every
 *   field that may be null is passed whole, through a path every audit item has.
 */
type FieldMapping = 'string' | 'attribute';

/** How each field of an event, or of one of its parts (a map attribute, `M`), reaches the bus. */
type Mapping = { readonly [field: string]: FieldMapping | Mapping };

/** The zod/mini schema node of one field: its kind, and an object's fields. */
interface SchemaNode {
  readonly _zod: { readonly def: { readonly type: string } };
  readonly shape?: Readonly<Record<string, SchemaNode>>;
}

const mappingOf = (shape: Readonly<Record<string, SchemaNode>>): Mapping =>
  Object.fromEntries(
    Object.entries(shape).map(([name, node]) => [
      name,
      node.shape ? mappingOf(node.shape) : node._zod.def.type === 'nullable' ? 'attribute' : 'string',
    ]),
  );

/**
 * The mapping of every field of an audit event, derived from its one schema: a field that may be null
 * is an `attribute`, every other a plain `string` (only id, time, type, the actor's type and how it acted; each
 * holds letters, digits and `.:-_#` only, so no value needs escaping inside the template's quotes).
 */
export const auditEventMapping = mappingOf(auditEventSchema().shape as unknown as Record<string, SchemaNode>);

/**
 * A placeholder of the Pipes input template. Pipes wants a variable that names a value quoted, and one
 * that names a JSON object or array unquoted (EventBridge User Guide, "Amazon EventBridge Pipes input
 * transformation").
 */
const placeholder = (path: string, mapping: FieldMapping): string =>
  mapping === 'string' ? `"<${path}.S>"` : `<${path}>`;

const renderObject = (fields: Readonly<Record<string, unknown>>, path: string, indent: string): string => {
  const inner = `${indent}  `;
  const lines = Object.entries(fields).map(([name, mapping]) => {
    const value =
      typeof mapping === 'string'
        ? placeholder(`${path}.${name}`, mapping as FieldMapping)
        : renderObject(mapping as Readonly<Record<string, unknown>>, `${path}.${name}.M`, inner);
    return `${inner}"${name}": ${value}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
};

/**
 * The pipe's input template: the stream record's new image turned into the event's JSON, the bus's
 * `detail` (see {@link auditEventMapping} for what is plain and what keeps its DynamoDB type).
 */
export const auditEventInputTemplate = renderObject(auditEventMapping, NEW_IMAGE, '');

/** The event's `detail-type`: its type, read from the record by a dynamic path parameter. */
export const AUDIT_DETAIL_TYPE_PATH = `${NEW_IMAGE}.type.S`;

/**
 * The event's `time`: when the change happened (the event's own ISO 8601 time, an RFC 3339 timestamp),
 * not when the pipe delivered it, which a retry can delay by up to an hour. An archive replays by this
 * time, so a replay window matches the audit trail's times.
 */
export const AUDIT_TIME_PATH = `${NEW_IMAGE}.time.S`;

/**
 * The records the pipe passes: new items (INSERT) whose partition key starts with `AUDIT#`. Every other
 * item, each update, and each deletion (a TTL expiry is a REMOVE) is dropped before the target.
 */
export const auditRecordFilter = {
  eventName: ['INSERT'],
  dynamodb: { Keys: { [tableSchema.partitionKey]: { S: [{ prefix: keyPrefix.audit }] } } },
};

/**
 * Records the pipe reads from the stream per batch: the most the event bus target takes (PutEvents
 * entries per call, EventBridge User Guide, "Amazon EventBridge Pipes batching and concurrency").
 */
const BATCH_SIZE = 10;

/**
 * Bounded retries: a failed batch is retried up to 10 times and for at most an hour. A PutEvents
 * throttle or a brief outage clears in seconds; a record that still fails after an hour will not
 * succeed by waiting, and holds back the later events of its shard (a shard is delivered in order). It
 * then goes to the dead-letter queue with 23 of the stream's 24 hours left to inspect it; the event
 * itself stays in the table until its TTL.
 */
const MAX_RETRY_ATTEMPTS = 10;
const MAX_RECORD_AGE = Duration.hours(1);

/**
 * The audit trail's way out of the table: a custom event bus, an archive of every event on it for
 * `auditRetentionDays`, and an EventBridge Pipe from the table's stream to the bus that passes each new
 * audit item (and nothing else) as an event with `source` {@link AUDIT_EVENT_SOURCE}, `detail-type` the
 * event's type, `time` the event's time and `detail` the event. No Lambda of ours is in the path.
 *
 * The pipe starts at TRIM_HORIZON, the oldest record the stream still holds (24 hours): the stream and
 * the pipe are created in one deployment, and an event written between the two would be skipped with
 * LATEST. The cost is that a pipe created again on an existing stream delivers up to a day of events a
 * second time; consumers tell events apart by `detail.id`, and for an audit trail a duplicate is
 * better than a gap.
 *
 * The pipe's role reads this table's stream and puts events on this bus, sends failed batches'
 * descriptions to its dead-letter queue and writes its error log: each on that one resource.
 */
export class AuditStream extends Construct {
  /** The bus every audit event is put on. */
  readonly eventBus: EventBus;
  /** The bus's archive, for replays. */
  readonly archive: Archive;
  /** The pipe from the table's stream to the bus. */
  readonly pipe: CfnPipe;
  /** The pipe's execution role. */
  readonly role: Role;
  /** Where the pipe describes batches it could not deliver (shard, sequence numbers, reason). */
  readonly deadLetterQueue: Queue;
  /** The pipe's error log. */
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AuditStreamProps) {
    super(scope, id);
    const { table } = props;
    const streamArn = table.tableStreamArn;
    if (streamArn === undefined) throw new Error('The audit stream needs the table to have a stream');

    this.eventBus = new EventBus(this, 'Bus', {
      description: 'Secrets Service audit events: every state change and token denial',
    });
    this.archive = this.eventBus.archive('Archive', {
      description: `Every Secrets Service audit event, kept ${props.retentionDays} days for replays`,
      eventPattern: { source: [AUDIT_EVENT_SOURCE] },
      retention: Duration.days(props.retentionDays),
    });

    this.deadLetterQueue = deadLetterQueue(this, 'the audit pipe');

    // Retained (the LogGroup default), like every log of the service. Errors only, and no execution data:
    // that would copy the events (addresses, e-mails) into the log.
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });

    const { account } = Stack.of(this);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('pipes.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
      description: 'Execution role of the audit pipe: reads the table stream, puts events on the audit bus',
    });
    // The four stream actions the Pipes guide lists for a DynamoDB source ("Amazon DynamoDB stream as a
    // source", execution role permissions), on this stream only.
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [streamArn],
      }),
    );
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['events:PutEvents'], resources: [this.eventBus.eventBusArn] }),
    );
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] }),
    );
    this.logGroup.grantWrite(this.role);

    this.pipe = new CfnPipe(this, 'Pipe', {
      description: 'New audit items of the table, as events on the audit bus',
      roleArn: this.role.roleArn,
      source: streamArn,
      sourceParameters: {
        filterCriteria: { filters: [{ pattern: JSON.stringify(auditRecordFilter) }] },
        dynamoDbStreamParameters: {
          startingPosition: 'TRIM_HORIZON',
          batchSize: BATCH_SIZE,
          maximumRetryAttempts: MAX_RETRY_ATTEMPTS,
          maximumRecordAgeInSeconds: MAX_RECORD_AGE.toSeconds(),
          onPartialBatchItemFailure: 'AUTOMATIC_BISECT',
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        },
      },
      target: this.eventBus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: {
          source: AUDIT_EVENT_SOURCE,
          detailType: AUDIT_DETAIL_TYPE_PATH,
          time: AUDIT_TIME_PATH,
        },
        inputTemplate: auditEventInputTemplate,
      },
      logConfiguration: {
        level: 'ERROR',
        cloudwatchLogsLogDestination: { logGroupArn: this.logGroup.logGroupArn },
      },
    });
    // Pipes checks its role's permissions when the pipe is created: the policy must exist first.
    this.pipe.node.addDependency(this.role);
  }
}
