import { convertToAttr, convertToNative, marshall } from '@aws-sdk/util-dynamodb';
import { AUDIT_EVENT_SOURCE, type AuditEvent } from '@contract/audit';
import { tableSchema } from '@contract/table-schema';
import { auditEventKeys } from '@lambdas/data/keys';
import { auditEventOfBusEvent } from '@lambdas/events/bus-event';
import {
  AUDIT_DETAIL_TYPE_PATH,
  AUDIT_TIME_PATH,
  auditEventInputTemplate,
  auditEventMapping,
  auditRecordFilter,
} from '@lib/constructs/audit-stream';
import { type Synthesized, synthesize } from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of the audit trail's way to EventBridge: the table's stream, the pipe (filter, target,
// input template), its role and dead-letter queue, the bus and its archive, and AUDIT_RETENTION_DAYS on
// every function that writes events. Synthesized without bundling, once per context variant.

type Json = Record<string, unknown>;

let plain: Synthesized;
let configured: Synthesized;

beforeAll(() => {
  plain = synthesize();
  configured = synthesize({ context: { auditRetentionDays: '730' } });
});

const logicalId = (synthesized: Synthesized, construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const getAtt = (synthesized: Synthesized, construct: IConstruct, attribute: string) => ({
  'Fn::GetAtt': [logicalId(synthesized, construct), attribute],
});
const onlyResource = (synthesized: Synthesized, type: string): Json => {
  const all = Object.values(synthesized.template.findResources(type) as Record<string, Json>);
  expect(all).toHaveLength(1);
  return (all[0] as Json).Properties as Json;
};
const pipeOf = (synthesized: Synthesized) => onlyResource(synthesized, 'AWS::Pipes::Pipe');
const streamArn = (synthesized: Synthesized) => getAtt(synthesized, synthesized.stack.dataStore.table, 'StreamArn');
const busArn = (synthesized: Synthesized) => getAtt(synthesized, synthesized.stack.auditStream.eventBus, 'Arn');

// --- What the pipe would do with a stream record, by the documented rules --------------------------

/** A value of the stream record at a `$.a.b.c` path; a path the record does not have fails the test. */
const valueAt = (record: unknown, path: string): unknown =>
  path
    .replace(/^\$\./, '')
    .split('.')
    .reduce<unknown>((value, key) => {
      if (typeof value !== 'object' || value === null || !(key in value)) {
        throw new Error(`The template names ${path}, which the record does not have`);
      }
      return (value as Record<string, unknown>)[key];
    }, record);

/**
 * The input template filled in for one record: a quoted placeholder becomes the string at its path, an
 * unquoted one the JSON value at its path (EventBridge User Guide, "Amazon EventBridge Pipes input
 * transformation": quote variables that name values, not those that name objects or arrays).
 */
const fillTemplate = (template: string, record: unknown): unknown =>
  JSON.parse(
    template.replace(/"<(\$[^>]+)>"|<(\$[^>]+)>/g, (_match, quoted: string | undefined, bare: string | undefined) => {
      if (quoted !== undefined) {
        const value = valueAt(record, quoted);
        if (typeof value !== 'string') throw new Error(`${quoted} is not a string`);
        return JSON.stringify(value);
      }
      return JSON.stringify(valueAt(record, bare as string));
    }),
  );

/** Whether a record matches an event pattern, for the operators the audit filter uses (exact strings, prefix). */
const matches = (pattern: unknown, value: unknown): boolean => {
  if (Array.isArray(pattern)) {
    return pattern.some((rule) => {
      if (typeof rule === 'string') return value === rule;
      if (typeof rule === 'object' && rule !== null && 'prefix' in rule) {
        return typeof value === 'string' && value.startsWith((rule as { prefix: string }).prefix);
      }
      throw new Error(`No semantics for ${JSON.stringify(rule)}`);
    });
  }
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern as Json).every(([key, inner]) => matches(inner, (value as Json)[key]));
};

// --- Audit events as the functions write them ---------------------------------------------------------

const tokenCreated: AuditEvent = {
  id: 'evt_01JD0000000000000000000001',
  time: '2026-11-23T12:00:00.000Z',
  type: 'token.created',
  actor: {
    type: 'user',
    id: 'user-1',
    name: null,
    userId: 'user-1',
    email: 'ada@example.com',
    via: 'session',
    tokenId: null,
    subject: null,
  },
  target: {
    tokenId: 'tok_abc',
    projectId: null,
    userId: 'user-1',
    email: 'ada@example.com',
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '203.0.113.9',
  // Quotes and a backslash: free text must reach the bus intact.
  userAgent: 'curl/8.5.0 "quoted" \\ backslash',
  requestId: 'req-1',
  details: {
    name: 'deploy "prod"',
    scopes: ['read:secrets', 'admin'],
    expiresAt: null,
    role: null,
    environment: null,
    secrets: null,
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const tokenDenied: AuditEvent = {
  id: 'evt_01JD0000000000000000000002',
  time: '2026-11-23T12:00:01.000Z',
  type: 'token.denied',
  actor: {
    type: 'user',
    id: 'user-1',
    name: null,
    userId: 'user-1',
    email: 'ada@example.com',
    via: 'token',
    tokenId: 'tok_abc',
    subject: null,
  },
  target: {
    tokenId: 'tok_abc',
    projectId: null,
    userId: 'user-1',
    email: null,
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '198.51.100.7',
  userAgent: null,
  requestId: 'req-2',
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: null,
    environment: null,
    secrets: null,
    reason: 'ip',
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const memberAdded: AuditEvent = {
  id: 'evt_01JD0000000000000000000003',
  time: '2026-11-23T12:00:02.000Z',
  type: 'member.added',
  actor: {
    type: 'user',
    id: 'user-1',
    name: null,
    userId: 'user-1',
    email: 'ada@example.com',
    via: 'token',
    tokenId: 'tok_abc',
    subject: null,
  },
  target: {
    tokenId: null,
    projectId: 'prj_1',
    userId: 'user-2',
    email: 'bob@example.com',
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '203.0.113.9',
  userAgent: 'secrets-cli/1.0',
  requestId: 'req-3',
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: 'admin',
    environment: null,
    secrets: null,
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const userOffboarded: AuditEvent = {
  id: 'evt_01JD0000000000000000000004',
  time: '2026-11-23T12:00:03.000Z',
  type: 'user.offboarded',
  actor: {
    type: 'system',
    id: null,
    name: null,
    userId: null,
    email: null,
    via: 'system',
    tokenId: null,
    subject: null,
  },
  target: {
    tokenId: null,
    projectId: null,
    userId: 'user-2',
    email: 'bob@example.com',
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: null,
  userAgent: null,
  requestId: null,
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: null,
    environment: null,
    secrets: null,
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const secretRead: AuditEvent = {
  id: 'evt_01JD0000000000000000000005',
  time: '2026-11-23T12:00:04.000Z',
  type: 'secret.read',
  actor: {
    type: 'user',
    id: 'user-1',
    name: null,
    userId: 'user-1',
    email: 'ada@example.com',
    via: 'token',
    tokenId: 'tok_abc',
    subject: null,
  },
  target: {
    tokenId: null,
    projectId: 'prj_AAAAAAAAAAAAAAAA',
    userId: null,
    email: null,
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '198.51.100.7',
  userAgent: 'secrets-cli',
  requestId: 'req-5',
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: null,
    environment: 'production',
    secrets: [
      { name: 'API_KEY', version: 3 },
      { name: 'DATABASE_URL', version: 1 },
    ],
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const shareRevealed: AuditEvent = {
  id: 'evt_01JD0000000000000000000006',
  time: '2026-11-23T12:00:05.000Z',
  type: 'share.revealed',
  actor: {
    type: 'user',
    id: 'user-2',
    name: null,
    userId: 'user-2',
    email: 'bob@example.com',
    via: 'session',
    tokenId: null,
    subject: null,
  },
  target: {
    tokenId: null,
    projectId: null,
    userId: 'user-1',
    email: 'ada@example.com',
    shareId: 'shr_abc',
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '198.51.100.8',
  userAgent: null,
  requestId: 'req-6',
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: null,
    environment: null,
    secrets: null,
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: 2,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
};
const EVENTS = [tokenCreated, tokenDenied, memberAdded, userOffboarded, secretRead, shareRevealed];

/** The item of an event, as the functions put it (keys, entity, TTL, then the event's own fields). */
const itemOf = (event: AuditEvent) =>
  marshall({
    ...auditEventKeys(event, event.target.userId ?? 'user-1', event.target.projectId),
    entity: 'AuditEvent',
    ttl: Math.floor(Date.parse(event.time) / 1000) + 400 * 86_400,
    ...event,
  });

/** The stream record of a write, as the pipe reads it from a NEW_IMAGE stream. */
const recordOf = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Record<string, unknown>) => ({
  eventID: '1',
  eventName,
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-west-1',
  dynamodb: {
    ApproximateCreationDateTime: 1_795_000_000,
    Keys: { PK: item.PK, SK: item.SK },
    ...(eventName !== 'REMOVE' && { NewImage: item }),
    SequenceNumber: '111',
    SizeBytes: 512,
    StreamViewType: 'NEW_IMAGE',
  },
});

/** The `detail` the mapping promises: plain strings where never null, DynamoDB attribute values elsewhere. */
const expectedDetail = (event: AuditEvent): unknown => {
  const convert = (mapping: unknown, value: unknown): unknown =>
    mapping === 'string'
      ? value
      : mapping === 'attribute'
        ? convertToAttr(value)
        : Object.fromEntries(
            Object.entries(mapping as Json).map(([name, inner]) => [name, convert(inner, (value as Json)[name])]),
          );
  return convert(auditEventMapping, event);
};

describe('table stream', () => {
  it('carries new images, the view the pipe maps from', () => {
    const table = onlyResource(plain, 'AWS::DynamoDB::Table');
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(tableSchema.streamViewType).toBe('NEW_IMAGE');
  });
});

describe('pipe', () => {
  it("reads the table's stream from its oldest record, ten records a batch", () => {
    const pipe = pipeOf(plain);
    expect(pipe.Source).toEqual(streamArn(plain));
    expect((pipe.SourceParameters as Json).DynamoDBStreamParameters).toMatchObject({
      // An event written between the stream's creation and the pipe's first poll is not skipped.
      StartingPosition: 'TRIM_HORIZON',
      // The most PutEvents entries the event bus target takes per call.
      BatchSize: 10,
    });
    expect(pipe.Enrichment).toBeUndefined();
  });

  it('passes only INSERTs of items whose partition key starts with AUDIT#', () => {
    const filters = ((pipeOf(plain).SourceParameters as Json).FilterCriteria as { Filters: { Pattern: string }[] })
      .Filters;
    expect(filters).toHaveLength(1);
    const pattern = JSON.parse(filters[0]?.Pattern ?? '') as unknown;
    expect(pattern).toEqual({
      eventName: ['INSERT'],
      dynamodb: { Keys: { PK: { S: [{ prefix: 'AUDIT#' }] } } },
    });
    expect(pattern).toEqual(auditRecordFilter);
  });

  it.each([
    ['a new audit event', 'INSERT', itemOf(tokenCreated), true],
    ['a new audit event of a project', 'INSERT', itemOf(memberAdded), true],
    ['an audit item rewritten', 'MODIFY', itemOf(tokenCreated), false],
    ["an audit item's TTL expiry (a REMOVE by DynamoDB)", 'REMOVE', itemOf(tokenCreated), false],
    ['a new token', 'INSERT', marshall({ PK: 'TOKEN#tok_abc', SK: 'TOKEN', entity: 'Token' }), false],
    ['a new membership', 'INSERT', marshall({ PK: 'PROJECT#prj_1', SK: 'MEMBER#user-2', entity: 'Member' }), false],
    ['a profile written', 'MODIFY', marshall({ PK: 'USER#user-1', SK: 'PROFILE', entity: 'Profile' }), false],
  ] as const)('on %s: passes it %s', (_case, eventName, item, passes) => {
    expect(matches(auditRecordFilter, recordOf(eventName, item))).toBe(passes);
  });

  it('puts each event on the audit bus with source secrets-service, the event type as detail-type and its time', () => {
    const pipe = pipeOf(plain);
    expect(pipe.Target).toEqual(busArn(plain));
    const target = pipe.TargetParameters as Json;
    expect(target.EventBridgeEventBusParameters).toEqual({
      Source: 'secrets-service',
      // Dynamic path parameters: read from the stream record itself, not from the transformed input.
      DetailType: '$.dynamodb.NewImage.type.S',
      Time: '$.dynamodb.NewImage.time.S',
    });
    expect(AUDIT_EVENT_SOURCE).toBe('secrets-service');
    expect([AUDIT_DETAIL_TYPE_PATH, AUDIT_TIME_PATH]).toEqual([
      '$.dynamodb.NewImage.type.S',
      '$.dynamodb.NewImage.time.S',
    ]);
    for (const event of EVENTS) {
      const record = recordOf('INSERT', itemOf(event));
      expect(valueAt(record, AUDIT_DETAIL_TYPE_PATH)).toBe(event.type);
      expect(valueAt(record, AUDIT_TIME_PATH)).toBe(event.time);
    }
  });

  it('shapes the detail with the input template, every field of the event named', () => {
    const template = (pipeOf(plain).TargetParameters as Json).InputTemplate as string;
    expect(template).toBe(auditEventInputTemplate);
    const paths = [...template.matchAll(/<(\$[^>]+)>/g)].map((match) => match[1]);
    expect(paths).toEqual([
      '$.dynamodb.NewImage.id.S',
      '$.dynamodb.NewImage.time.S',
      '$.dynamodb.NewImage.type.S',
      '$.dynamodb.NewImage.actor.M.type.S',
      '$.dynamodb.NewImage.actor.M.id',
      '$.dynamodb.NewImage.actor.M.name',
      '$.dynamodb.NewImage.actor.M.userId',
      '$.dynamodb.NewImage.actor.M.email',
      '$.dynamodb.NewImage.actor.M.via.S',
      '$.dynamodb.NewImage.actor.M.tokenId',
      '$.dynamodb.NewImage.actor.M.subject',
      '$.dynamodb.NewImage.target.M.tokenId',
      '$.dynamodb.NewImage.target.M.projectId',
      '$.dynamodb.NewImage.target.M.userId',
      '$.dynamodb.NewImage.target.M.email',
      '$.dynamodb.NewImage.target.M.shareId',
      '$.dynamodb.NewImage.target.M.changeRequestId',
      '$.dynamodb.NewImage.target.M.serviceAccountId',
      '$.dynamodb.NewImage.target.M.webhookId',
      '$.dynamodb.NewImage.sourceIp',
      '$.dynamodb.NewImage.userAgent',
      '$.dynamodb.NewImage.requestId',
      '$.dynamodb.NewImage.details.M.name',
      '$.dynamodb.NewImage.details.M.scopes',
      '$.dynamodb.NewImage.details.M.expiresAt',
      '$.dynamodb.NewImage.details.M.role',
      '$.dynamodb.NewImage.details.M.environment',
      '$.dynamodb.NewImage.details.M.secrets',
      '$.dynamodb.NewImage.details.M.reason',
      '$.dynamodb.NewImage.details.M.replacedBy',
      '$.dynamodb.NewImage.details.M.stopsAt',
      '$.dynamodb.NewImage.details.M.daysLeft',
      '$.dynamodb.NewImage.details.M.maxViews',
      '$.dynamodb.NewImage.details.M.viewsLeft',
      '$.dynamodb.NewImage.details.M.access',
      '$.dynamodb.NewImage.details.M.needed',
      '$.dynamodb.NewImage.details.M.note',
      '$.dynamodb.NewImage.details.M.protected',
      '$.dynamodb.NewImage.details.M.approvals',
      '$.dynamodb.NewImage.details.M.defaultAccess',
      '$.dynamodb.NewImage.details.M.url',
    ]);
    // Values quoted, whole attribute values bare, as Pipes wants them.
    expect(template).toContain('"id": "<$.dynamodb.NewImage.id.S>"');
    expect(template).toContain('"sourceIp": <$.dynamodb.NewImage.sourceIp>,');
  });

  it('turns a new audit item into the event: plain strings where never null, DynamoDB values where nullable', () => {
    expect(fillTemplate(auditEventInputTemplate, recordOf('INSERT', itemOf(tokenDenied)))).toEqual({
      id: 'evt_01JD0000000000000000000002',
      time: '2026-11-23T12:00:01.000Z',
      type: 'token.denied',
      actor: {
        type: 'user',
        id: { S: 'user-1' },
        name: { NULL: true },
        userId: { S: 'user-1' },
        email: { S: 'ada@example.com' },
        via: 'token',
        tokenId: { S: 'tok_abc' },
        subject: { NULL: true },
      },
      target: {
        tokenId: { S: 'tok_abc' },
        projectId: { NULL: true },
        userId: { S: 'user-1' },
        email: { NULL: true },
        shareId: { NULL: true },
        changeRequestId: { NULL: true },
        serviceAccountId: { NULL: true },
        webhookId: { NULL: true },
      },
      sourceIp: { S: '198.51.100.7' },
      userAgent: { NULL: true },
      requestId: { S: 'req-2' },
      details: {
        name: { NULL: true },
        scopes: { NULL: true },
        expiresAt: { NULL: true },
        role: { NULL: true },
        environment: { NULL: true },
        secrets: { NULL: true },
        reason: { S: 'ip' },
        replacedBy: { NULL: true },
        stopsAt: { NULL: true },
        daysLeft: { NULL: true },
        maxViews: { NULL: true },
        viewsLeft: { NULL: true },
        access: { NULL: true },
        needed: { NULL: true },
        protected: { NULL: true },
        approvals: { NULL: true },
        defaultAccess: { NULL: true },
        url: { NULL: true },
        note: { NULL: true },
      },
    });
  });

  it.each(EVENTS.map((event) => [event.type, event] as const))(
    'maps every field of a %s item, and only paths every audit item has',
    (_type, event) => {
      const detail = fillTemplate(auditEventInputTemplate, recordOf('INSERT', itemOf(event)));
      expect(detail).toEqual(expectedDetail(event));
      expect(Object.keys(detail as Json).sort()).toEqual(Object.keys(event).sort());
    },
  );

  it.each(EVENTS.map((event) => [event.type, event] as const))(
    'gives the webhook delivery a %s event back as the trail has it, field for field',
    (_type, event) => {
      const detail = fillTemplate(auditEventInputTemplate, recordOf('INSERT', itemOf(event)));
      expect(auditEventOfBusEvent({ detail })).toEqual(event);
    },
  );

  it.each(EVENTS.map((event) => [event.type, event] as const))(
    'lets a consumer restore the plain %s event with convertToNative (the recipe in docs/operations.md)',
    (_type, event) => {
      // As in docs/operations.md: every DynamoDB attribute value back to its value, plain strings kept.
      const isAttribute = (value: object) =>
        Object.keys(value).length === 1 && ['S', 'N', 'L', 'NULL'].includes(Object.keys(value)[0] ?? '');
      const native = (value: unknown): unknown =>
        typeof value === 'string'
          ? value
          : isAttribute(value as object)
            ? convertToNative(value as Parameters<typeof convertToNative>[0])
            : Object.fromEntries(Object.entries(value as Json).map(([key, inner]) => [key, native(inner)]));
      expect(native(fillTemplate(auditEventInputTemplate, recordOf('INSERT', itemOf(event))))).toEqual(event);
    },
  );

  it('keeps free text intact: quotes and backslashes travel inside attribute values', () => {
    const detail = fillTemplate(auditEventInputTemplate, recordOf('INSERT', itemOf(tokenCreated))) as Json;
    expect(detail.userAgent).toEqual({ S: 'curl/8.5.0 "quoted" \\ backslash' });
    expect((detail.details as Json).name).toEqual({ S: 'deploy "prod"' });
    expect((detail.details as Json).scopes).toEqual({ L: [{ S: 'read:secrets' }, { S: 'admin' }] });
  });
});

describe('dead-letter queue and retries', () => {
  it('retries a failed batch at most 10 times and for at most an hour, then describes it in the queue', () => {
    const parameters = (pipeOf(plain).SourceParameters as Json).DynamoDBStreamParameters as Json;
    const queue = plain.stack.auditStream.deadLetterQueue;
    expect(parameters).toMatchObject({
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 3600,
      OnPartialBatchItemFailure: 'AUTOMATIC_BISECT',
      DeadLetterConfig: { Arn: getAtt(plain, queue, 'Arn') },
    });
    // Less than the stream's 24 hours, so a record is still there to inspect when it reaches the queue.
    expect(parameters.MaximumRecordAgeInSeconds as number).toBeLessThan(24 * 3600);
  });

  it('is encrypted, accepts TLS only and keeps messages 14 days', () => {
    const queueId = logicalId(plain, plain.stack.auditStream.deadLetterQueue);
    const queue = (plain.template.findResources('AWS::SQS::Queue')[queueId] as Json).Properties as Json;
    expect(queue).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const policies = Object.values(plain.template.findResources('AWS::SQS::QueuePolicy') as Record<string, Json>)
      .map((resource) => resource.Properties as Json)
      .filter((properties) => JSON.stringify(properties.Queues) === JSON.stringify([{ Ref: queueId }]));
    expect(policies).toHaveLength(1);
    const [policy] = policies;
    if (!policy) throw new Error('expected a queue policy');
    expect((policy.PolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    ]);
  });
});

describe("pipe's role", () => {
  const statementsOf = (synthesized: Synthesized) => {
    const roleId = logicalId(synthesized, synthesized.stack.auditStream.role);
    return Object.values(synthesized.template.findResources('AWS::IAM::Policy') as Record<string, Json>)
      .map((resource) => resource.Properties as Json)
      .filter((properties) => JSON.stringify(properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((properties) => (properties.PolicyDocument as { Statement: Json[] }).Statement);
  };

  it('is assumed by EventBridge Pipes for this account only, and runs the pipe', () => {
    const { role } = plain.stack.auditStream;
    const properties = (plain.template.findResources('AWS::IAM::Role')[logicalId(plain, role)] as Json)
      .Properties as Json;
    expect((properties.AssumeRolePolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'pipes.amazonaws.com' },
        Action: 'sts:AssumeRole',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      },
    ]);
    expect(properties.ManagedPolicyArns).toBeUndefined();
    expect(properties.Policies).toBeUndefined();
    expect(pipeOf(plain).RoleArn).toEqual(getAtt(plain, role, 'Arn'));
  });

  it("reads this table's stream, puts events on this bus, and writes its own queue and log only", () => {
    const { deadLetterQueue, logGroup } = plain.stack.auditStream;
    expect(statementsOf(plain)).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        Resource: streamArn(plain),
      },
      { Effect: 'Allow', Action: 'events:PutEvents', Resource: busArn(plain) },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: getAtt(plain, deadLetterQueue, 'Arn') },
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: getAtt(plain, logGroup, 'Arn'),
      },
    ]);
    expect(JSON.stringify(statementsOf(plain))).not.toContain('*');
  });

  it('exists before the pipe, whose creation checks it', () => {
    const pipe = Object.values(plain.template.findResources('AWS::Pipes::Pipe') as Record<string, Json>)[0];
    expect(pipe?.DependsOn).toEqual(
      expect.arrayContaining([
        logicalId(plain, plain.stack.auditStream.role),
        expect.stringMatching(/^AuditStreamRoleDefaultPolicy/),
      ]),
    );
  });

  it('logs errors only, without the events themselves', () => {
    expect(pipeOf(plain).LogConfiguration).toEqual({
      Level: 'ERROR',
      CloudwatchLogsLogDestination: { LogGroupArn: getAtt(plain, plain.stack.auditStream.logGroup, 'Arn') },
    });
  });
});

describe('event bus and archive', () => {
  it('is a custom bus of the stack', () => {
    const bus = onlyResource(plain, 'AWS::Events::EventBus');
    expect(bus.Name).toEqual(expect.any(String));
    expect(bus.EventSourceName).toBeUndefined();
  });

  it.each([
    ['by default', () => plain, 400],
    ['with auditRetentionDays=730', () => configured, 730],
  ])('archives every audit event of the bus %s for auditRetentionDays', (_case, variant, days) => {
    const synthesized = variant();
    expect(onlyResource(synthesized, 'AWS::Events::Archive')).toMatchObject({
      SourceArn: busArn(synthesized),
      EventPattern: { source: ['secrets-service'] },
      RetentionDays: days,
    });
  });

  it('outputs the bus name and ARN, the archive name and the dead-letter queue', () => {
    const outputs = plain.template.findOutputs('*');
    const { eventBus, archive, deadLetterQueue } = plain.stack.auditStream;
    expect(outputs.AuditEventBusName?.Value).toEqual({ Ref: logicalId(plain, eventBus) });
    expect(outputs.AuditEventBusArn?.Value).toEqual(busArn(plain));
    expect(outputs.AuditArchiveName?.Value).toEqual({ Ref: logicalId(plain, archive) });
    expect(outputs.AuditDeadLetterQueueUrl?.Value).toEqual({ Ref: logicalId(plain, deadLetterQueue) });
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  const writers = (synthesized: Synthesized) => {
    const { serviceApi, offboarding } = synthesized.stack;
    if (!offboarding) throw new Error('expected the offboarding function');
    return [
      ['authorizer', serviceApi.authorizerFunction],
      ...[...serviceApi.routeFunctions].map(([name, fn]) => [name, fn] as const),
      ['offboard-user', offboarding.function],
    ] as const;
  };

  it.each([
    ['by default', () => plain, '400'],
    ['with auditRetentionDays=730', () => configured, '730'],
  ])('is set %s on the authorizer, every route function and the offboarding function', (_case, variant, days) => {
    const synthesized = variant();
    const functions = synthesized.template.findResources('AWS::Lambda::Function') as Record<string, Json>;
    const seen = writers(synthesized).map(([name, fn]) => {
      const properties = functions[logicalId(synthesized, fn.lambdaFunction)]?.Properties as Json;
      return [name, (properties.Environment as { Variables: Json }).Variables.AUDIT_RETENTION_DAYS];
    });
    expect(seen).toEqual(writers(synthesized).map(([name]) => [name, days]));
  });
});

describe('cdk-nag', () => {
  it('reports no unacknowledged finding with a configured retention either', () => {
    expect(configured.findings).toEqual([]);
  });

  it("acknowledges on the audit pipe's queue only that it is itself a dead-letter queue", () => {
    const path = plain.stack.auditStream.deadLetterQueue.node.path;
    const acknowledged = plain.acknowledgements.filter((acknowledgement) =>
      acknowledgement.constructPath.startsWith(plain.stack.auditStream.node.path),
    );
    expect(acknowledged.map((acknowledgement) => [acknowledgement.constructPath, acknowledgement.id]).sort()).toEqual(
      [
        [path, 'AwsSolutions-SQS3'],
        [path, 'Serverless-SQSRedrivePolicy'],
      ].sort(),
    );
  });
});
