import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { auditEventKeys } from '@lambdas/data/keys';
import { auditEventOfRecord } from '../../../local/event-log';

const event: AuditEvent = {
  id: 'evt_01J0000000000000000000000',
  time: '2026-11-23T12:00:00.000Z',
  type: 'member.added',
  actor: {
    type: 'user',
    id: 'user-1',
    name: null,
    userId: 'user-1',
    email: 'ada@example.com',
    via: 'token',
    tokenId: 'tok_1',
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
  sourceIp: '203.0.113.7',
  userAgent: 'curl/8.5.0',
  requestId: 'req-1',
  details: {
    name: null,
    scopes: null,
    expiresAt: null,
    role: 'member',
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

/** The item as the audit writes store it: keys, entity and ttl beside the event's fields. */
const auditItem = { ...auditEventKeys(event, 'user-1', 'prj_1'), entity: 'AuditEvent', ttl: 1_900_000_000, ...event };

const streamRecord = (eventName: StreamRecord['eventName'], item: Record<string, unknown> | undefined) =>
  ({
    eventName,
    dynamodb: { SequenceNumber: '000000000000000000001', NewImage: item && marshall(item) },
  }) as StreamRecord;

describe('auditEventOfRecord', () => {
  it('turns a new audit item into the plain event: its fields only, nulls kept', () => {
    const plain = auditEventOfRecord(streamRecord('INSERT', auditItem));
    expect(plain).toEqual(event);
    expect(Object.keys(plain ?? {})).toEqual(Object.keys(event));
  });

  it('drops the keys, the index keys, the entity and the ttl', () => {
    const plain = auditEventOfRecord(streamRecord('INSERT', auditItem)) as unknown as Record<string, unknown>;
    for (const attribute of ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'entity', 'ttl'])
      expect(plain).not.toHaveProperty(attribute);
  });

  it('ignores a new item outside the audit partitions', () => {
    const token = { PK: 'TOKEN#abc', SK: 'TOKEN', entity: 'Token', id: 'abc', time: event.time };
    expect(auditEventOfRecord(streamRecord('INSERT', token))).toBeUndefined();
  });

  it('ignores an audit item that is changed or removed: only a new one is an event', () => {
    expect(auditEventOfRecord(streamRecord('MODIFY', auditItem))).toBeUndefined();
    expect(auditEventOfRecord(streamRecord('REMOVE', undefined))).toBeUndefined();
  });
});
