import type { AuditEvent } from '@contract/audit';
import { tableSchema } from '@contract/table-schema';
import type {
  ChangeRequestRecord,
  ClosingChangeRequest,
  NewChangeRequest,
  ProposedValue,
  StoredSlotMap,
} from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, queryAll, type TableWrite, transactWrite } from './client';
import {
  CHANGE_REQUEST_PREFIX,
  changeRequestKey,
  changeSlotsKey,
  environmentKey,
  memberKey,
  projectKey,
  proposedValueKey,
  proposedValuePrefix,
  secretsPartition,
} from './keys';
import { managerCheck } from './manager-check';
import { firstSlotMap, freeSlot, slotMapUpdate } from './slot-map';

/** Days a closed change request (or one past its expiry) is kept before DynamoDB's TTL removes it. */
const KEPT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The epoch second after which DynamoDB may remove a request: 90 days after it closed or expired. */
const expiryOf = (request: ChangeRequestRecord): number =>
  Math.ceil((Date.parse(request.closedAt ?? request.expiresAt) + KEPT_DAYS * DAY_MS) / 1000);

const requestPut = (request: ChangeRequestRecord, condition: { readonly revision?: number }): TableWrite => ({
  Put: {
    Item: Object.assign(
      changeRequestKey(request.projectId, request.environment, request.id),
      { entity: 'ChangeRequest', [tableSchema.timeToLiveAttribute]: expiryOf(request) },
      request,
    ),
    ...(condition.revision === undefined
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: 'revision = :read', ExpressionAttributeValues: { ':read': condition.revision } }),
  },
});

/** A change request, strongly consistent (it decides what an approval does). */
export const getChangeRequest = (
  projectId: string,
  environment: string,
  id: string,
): Promise<ChangeRequestRecord | undefined> =>
  getItem<ChangeRequestRecord>(changeRequestKey(projectId, environment, id), true);

/** Every change request of an environment kept in the table, strongly consistent. */
export const listChangeRequests = (projectId: string, environment: string): Promise<ChangeRequestRecord[]> =>
  queryAll<ChangeRequestRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :request)',
    ExpressionAttributeValues: { ':pk': secretsPartition(projectId, environment), ':request': CHANGE_REQUEST_PREFIX },
    ConsistentRead: true,
  });

/** The values a change request proposes, sealed, strongly consistent. */
export const getProposedValues = (projectId: string, environment: string, id: string): Promise<ProposedValue[]> =>
  queryAll<ProposedValue>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :values)',
    ExpressionAttributeValues: { ':pk': secretsPartition(projectId, environment), ':values': proposedValuePrefix(id) },
    ProjectionExpression: '#name, ciphertext, binding',
    ExpressionAttributeNames: { '#name': 'name' },
    ConsistentRead: true,
  });

/** An environment's change-request slots (its open requests by expiry), strongly consistent. */
export const getChangeSlots = (projectId: string, environment: string): Promise<StoredSlotMap | undefined> =>
  getItem<StoredSlotMap>(changeSlotsKey(projectId, environment), true);

/**
 * Stores a new change request with its values and event, in one transaction that checks the proposer
 * is still a member with the access judged, the environment is still in the life read, and the slots
 * are as read (so the limit of open requests holds under concurrent proposals). `changed`: something
 * read moved; the caller reads again.
 */
export const createChangeRequest = async (created: NewChangeRequest): Promise<'written' | 'changed'> => {
  const { request, slots } = created;
  const { projectId, environment, environmentLife } = request;
  const revision = created.accessRevision;
  const slotsKey = changeSlotsKey(projectId, environment);
  const writes: TableWrite[] = [
    {
      ConditionCheck: {
        Key: memberKey(projectId, request.author.userId),
        ConditionExpression:
          revision === undefined
            ? 'attribute_exists(PK) AND attribute_not_exists(accessRevision)'
            : 'attribute_exists(PK) AND accessRevision = :revision',
        ...(revision !== undefined && { ExpressionAttributeValues: { ':revision': revision } }),
      },
    },
    {
      ConditionCheck: {
        Key: environmentKey(projectId, environment),
        ConditionExpression:
          environmentLife === undefined ? 'attribute_exists(PK) AND attribute_not_exists(life)' : 'life = :life',
        ...(environmentLife !== undefined && { ExpressionAttributeValues: { ':life': environmentLife } }),
      },
    },
    slots.stored === undefined
      ? firstSlotMap(slotsKey, 'ChangeSlots', slots.set)
      : slotMapUpdate(slotsKey, slots.stored, slots.set, slots.freed),
    requestPut(request, {}),
    ...created.values.map(
      (value): TableWrite => ({
        Put: {
          Item: Object.assign(
            proposedValueKey(projectId, environment, request.id, value.name),
            { entity: 'ProposedValue', [tableSchema.timeToLiveAttribute]: expiryOf(request) },
            value,
          ),
        },
      }),
    ),
    auditEventPut(created.event, { userId: request.author.userId, projectId }),
  ];
  if (created.newDataKey !== undefined) {
    writes.push({
      Update: {
        Key: projectKey(projectId),
        UpdateExpression: 'SET dataKey = :key',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(dataKey)',
        ExpressionAttributeValues: { ':key': created.newDataKey },
      },
    });
  }
  const outcome = await transactWrite(
    writes,
    writes.map((_write, index) => index),
  );
  return outcome.ok ? 'written' : 'changed';
};

/**
 * The writes that close a change request in the transaction of another change (the secrets it applies):
 * the request as closed, only if it is still as read; its events; its slot freed.
 */
export const closingWrites = (closing: ClosingChangeRequest, actorUserId: string): TableWrite[] => {
  const { read, closed } = closing;
  return [
    requestPut(closed, { revision: read.revision }),
    ...closing.events.map((event) => auditEventPut(event, { userId: actorUserId, projectId: read.projectId })),
    freeSlot(changeSlotsKey(read.projectId, read.environment), read.id),
  ];
};

/**
 * Stores a change request changed by an approval, a rejection, a cancellation or its conflict, with its
 * events, only if it is still as read (and, `byManager`, while the actor still manages the project);
 * a request that closes frees its slot. `requestChanged`: read it again; `refused`: the actor stopped
 * managing the project.
 */
export const updateChangeRequest = async (
  read: ChangeRequestRecord,
  next: ChangeRequestRecord,
  events: readonly AuditEvent[],
  actor: { readonly userId: string; readonly byManager: boolean },
): Promise<'written' | 'requestChanged' | 'refused'> => {
  const writes: TableWrite[] = [
    requestPut(next, { revision: read.revision }),
    ...events.map((event) => auditEventPut(event, { userId: actor.userId, projectId: read.projectId })),
  ];
  if (next.status !== 'open') writes.push(freeSlot(changeSlotsKey(read.projectId, read.environment), read.id));
  if (actor.byManager) writes.push(managerCheck(read.projectId, actor.userId));
  const outcome = await transactWrite(writes, [0, writes.length - 1]);
  if (outcome.ok) return 'written';
  return outcome.conditionFailed.includes(0) ? 'requestChanged' : 'refused';
};
