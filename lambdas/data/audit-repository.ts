import { type AuditEvent, DEFAULT_AUDIT_RETENTION_DAYS } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { listIndexName, tableSchema } from '@contract/table-schema';
import { BadRequestError } from '@lambdas/domain/errors';
import type { TrailPage, TrailQuery } from '@lambdas/domain/records';
import { type AuditTrails, auditEventItem } from './audit-item';
import { type Attributes, type PutWrite, queryPage, writeItem } from './client';
import { projectAuditPartition, userAuditPartition } from './keys';

/** Days an event is kept before DynamoDB's TTL deletes it (the stack's `auditRetentionDays`). */
const retentionDays = (() => {
  const value = process.env.AUDIT_RETENTION_DAYS;
  if (value === undefined || value === '') return DEFAULT_AUDIT_RETENTION_DAYS;
  if (!/^\d+$/.test(value)) throw new Error('Environment variable AUDIT_RETENTION_DAYS must be a whole number');
  return Number(value);
})();

/**
 * The write of one event, to go into the transaction of the change it records: no change without its
 * event, no event without its change. Its id is new, so the condition never fails but on a collision.
 */
export const auditEventPut = (event: AuditEvent, trails: AuditTrails): PutWrite => ({
  Put: { Item: auditEventItem(event, trails, retentionDays), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Writes an event that marks the end of steps that each wrote their own (the offboarding's). */
export const recordAuditEvent = (event: AuditEvent, trails: AuditTrails): Promise<void> =>
  writeItem(auditEventPut(event, trails));

const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#evt_[0-9A-Za-z]{20}$/;

const invalidCursor = (message = 'Invalid cursor') =>
  new BadRequestError(ErrorText.validation, [{ path: 'cursor', message }]);

/** Where a trail lives: the user's in the table, the project's in the list index. */
interface Trail {
  readonly partitionKey: 'PK' | 'GSI1PK';
  readonly sortKey: 'SK' | 'GSI1SK';
  readonly partition: string;
  readonly index?: string;
}

/**
 * The sort keys a query reads, inclusive. `~` sorts after every character of a sort key, so `until`
 * takes in its whole millisecond, and with no `until` every year does.
 */
const keyRange = (query: TrailQuery) => ({ from: query.since ?? '0', to: `${query.until ?? ''}~` });

/** The filters a page was read with, in one fixed order: a cursor continues that query and no other. */
const filtersOf = (query: TrailQuery): string =>
  JSON.stringify([query.type ?? null, query.since ?? null, query.until ?? null]);

/** What a cursor holds: the last event's keys and the filters of its query. */
interface Cursor {
  readonly key: Record<string, string>;
  readonly filters: string;
}

/** The cursor is opaque to the caller; one that is not from this trail and these filters is refused. */
const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

const decodeCursor = (cursor: string, trail: Trail, query: TrailQuery): Record<string, string> => {
  let parsed: Partial<Cursor> | null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const key: unknown = typeof parsed === 'object' ? parsed?.key : undefined;
  const expected = trail.index ? ['GSI1PK', 'GSI1SK', 'PK', 'SK'] : ['PK', 'SK'];
  const valid =
    typeof key === 'object' &&
    key !== null &&
    Object.keys(key).sort().join() === expected.join() &&
    Object.values(key).every((value) => typeof value === 'string') &&
    (key as Record<string, string>)[trail.partitionKey] === trail.partition &&
    SORT_KEY.test((key as Record<string, string>).SK ?? '') &&
    (!trail.index ||
      ((key as Record<string, string>).GSI1SK === (key as Record<string, string>).SK &&
        (key as Record<string, string>).PK?.startsWith(userAuditPartition(''))));
  if (!valid) throw invalidCursor();
  if (parsed?.filters !== filtersOf(query)) {
    throw invalidCursor('This cursor belongs to a query with other filters: send its type, since and until');
  }
  // DynamoDB refuses a start key outside the key condition (a 500); only an altered cursor has one.
  const { from, to } = keyRange(query);
  const sortKey = (key as Record<string, string>).SK ?? '';
  if (sortKey < from || sortKey > to) throw invalidCursor();
  return key as Record<string, string>;
};

/**
 * An event as it is answered now: one stored before actors had a type (every one of them a user's or
 * the service's) gets the type, id, name and subject it would have had.
 */
const withActorType = (event: AuditEvent): AuditEvent => {
  const actor = event.actor as Partial<AuditEvent['actor']> & Pick<AuditEvent['actor'], 'userId' | 'via'>;
  if (actor.type !== undefined) return event;
  const type = actor.via === 'system' ? 'system' : 'user';
  return { ...event, actor: { ...event.actor, type, id: actor.userId, name: null, subject: null } };
};

/** Reads a page of a trail: newest first, filtered by time on the key and by type on the items. */
const readTrail = async (trail: Trail, query: TrailQuery): Promise<TrailPage> => {
  const events: AuditEvent[] = [];
  const keys: Record<string, string>[] = [];
  let startKey: Attributes | undefined =
    query.cursor === undefined ? undefined : decodeCursor(query.cursor, trail, query);
  const { from, to } = keyRange(query);
  let more = true;
  while (events.length < query.limit && more) {
    const page = await queryPage(
      {
        IndexName: trail.index,
        // The user's own trail reads what they just did; an index is only ever eventually consistent.
        ConsistentRead: trail.index === undefined,
        KeyConditionExpression: '#pk = :partition AND #sk BETWEEN :from AND :to',
        ...(query.type && { FilterExpression: '#type = :type' }),
        ExpressionAttributeNames: {
          '#pk': trail.partitionKey,
          '#sk': trail.sortKey,
          ...(query.type && { '#type': 'type' }),
        },
        ExpressionAttributeValues: {
          ':partition': trail.partition,
          ':from': from,
          ':to': to,
          ...(query.type && { ':type': query.type }),
        },
        ScanIndexForward: false,
        Limit: query.limit,
      },
      startKey,
    );
    for (const item of page.items) {
      const { PK, SK, GSI1PK, GSI1SK, entity, [tableSchema.timeToLiveAttribute]: _ttl, ...event } = item;
      events.push(withActorType(event as AuditEvent));
      keys.push(trail.index ? { PK, SK, GSI1PK, GSI1SK } : { PK, SK });
    }
    startKey = page.lastKey;
    more = startKey !== undefined;
  }
  const last = keys[Math.min(events.length, query.limit) - 1];
  const truncated = events.length > query.limit;
  return {
    events: events.slice(0, query.limit),
    nextCursor: (more || truncated) && last ? encodeCursor({ key: last, filters: filtersOf(query) }) : null,
  };
};

/** A user's trail: what they did and what happened to their tokens (strongly consistent: it is their own). */
export const listUserAuditEvents = (userId: string, query: TrailQuery): Promise<TrailPage> =>
  readTrail({ partitionKey: 'PK', sortKey: 'SK', partition: userAuditPartition(userId) }, query);

/** A project's trail, from the list index. */
export const listProjectAuditEvents = (projectId: string, query: TrailQuery): Promise<TrailPage> =>
  readTrail(
    { partitionKey: 'GSI1PK', sortKey: 'GSI1SK', partition: projectAuditPartition(projectId), index: listIndexName },
    query,
  );
