import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_WEBHOOKS, WEBHOOK_DELIVERIES_SHOWN, WEBHOOK_DELIVERY_DAYS } from '@contract/limits';
import { tableSchema } from '@contract/table-schema';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { DeliveryRecord, ProjectRecord, WebhookRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, queryAll, queryPage, transactWrite, writeItem } from './client';
import {
  projectKey,
  WEBHOOK_PREFIX,
  webhookDeliveryKey,
  webhookDeliveryPrefix,
  webhookEventDeliveryPrefix,
  webhookKey,
} from './keys';
import { managerCheck } from './manager-check';
import { lowerProjectCount } from './project-count';

/*
 * A project's webhooks, in its partition beside its members, and each webhook's delivery attempts there
 * too (kept `WEBHOOK_DELIVERY_DAYS`, by TTL). The project item counts its webhooks against their limit.
 */

const DAY_SECONDS = 24 * 60 * 60;

/** A project, strongly consistent: its data key seals and opens the webhooks' signing secrets. */
export const getProject = (projectId: string): Promise<ProjectRecord | undefined> =>
  getItem<ProjectRecord>(projectKey(projectId), true);

/** One webhook, strongly consistent. */
export const getWebhook = (projectId: string, webhookId: string): Promise<WebhookRecord | undefined> =>
  getItem<WebhookRecord>(webhookKey(projectId, webhookId), true);

/** A project's webhooks, strongly consistent (one registered or deleted a moment ago is told as it is). */
export const listWebhooks = (projectId: string): Promise<WebhookRecord[]> =>
  queryAll<WebhookRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :webhook)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':webhook': WEBHOOK_PREFIX },
    ConsistentRead: true,
  });

/**
 * Registers a webhook with its event while `managerUserId` still manages the project, in one
 * transaction that raises the project's count of webhooks only below `MAX_WEBHOOKS` (so the limit holds
 * under concurrent registrations) and, given `newDataKey`, stores the project's first data key, which
 * sealed the webhook's secret. 404 when the caller no longer manages the project, 409 at the limit;
 * `keyChanged` when another write stored a data key first (seal again under that one).
 */
export const createWebhook = async (
  managerUserId: string,
  webhook: WebhookRecord,
  newDataKey: Uint8Array | undefined,
  event: AuditEvent,
): Promise<'written' | 'keyChanged'> => {
  const { projectId } = webhook;
  const keyCondition = newDataKey === undefined ? 'attribute_exists(dataKey)' : 'attribute_not_exists(dataKey)';
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Update: {
          Key: projectKey(projectId),
          UpdateExpression: `SET webhookCount = if_not_exists(webhookCount, :zero) + :one${newDataKey === undefined ? '' : ', dataKey = :key'}`,
          ConditionExpression: `attribute_exists(PK) AND (attribute_not_exists(webhookCount) OR webhookCount < :max) AND ${keyCondition}`,
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':max': MAX_WEBHOOKS,
            ...(newDataKey !== undefined && { ':key': newDataKey }),
          },
        },
      },
      {
        Put: {
          Item: Object.assign(webhookKey(projectId, webhook.webhookId), { entity: 'Webhook' }, webhook),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  if (outcome.ok) return 'written';
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  // The count, or the data key: read the project again to say which.
  const project = await getProject(projectId);
  if (newDataKey !== undefined && project?.dataKey !== undefined) return 'keyChanged';
  throw new ConflictError(ErrorText.webhookLimit);
};

/**
 * Deletes a webhook with its event while `managerUserId` still manages the project, lowering the
 * project's count; answers whether it wrote (false: the caller stopped managing it, or it was gone).
 */
export const deleteWebhook = async (
  managerUserId: string,
  projectId: string,
  webhookId: string,
  event: AuditEvent,
): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      { Delete: { Key: webhookKey(projectId, webhookId), ConditionExpression: 'attribute_exists(PK)' } },
      lowerProjectCount(projectId, 'webhookCount'),
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  return outcome.ok;
};

/**
 * Records a `webhook.pinged` event while `managerUserId` still manages the project and the webhook is
 * there; answers whether it wrote.
 */
export const recordPing = async (
  managerUserId: string,
  projectId: string,
  webhookId: string,
  event: AuditEvent,
): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      { ConditionCheck: { Key: webhookKey(projectId, webhookId), ConditionExpression: 'attribute_exists(PK)' } },
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  return outcome.ok;
};

/**
 * A webhook's latest delivery attempts, newest event first (an event's attempts together, the latest
 * first): one page of at most `WEBHOOK_DELIVERIES_SHOWN`.
 */
export const listDeliveries = async (projectId: string, webhookId: string): Promise<DeliveryRecord[]> =>
  (
    await queryPage<DeliveryRecord>(
      {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :delivery)',
        ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':delivery': webhookDeliveryPrefix(webhookId) },
        ScanIndexForward: false,
        Limit: WEBHOOK_DELIVERIES_SHOWN,
        ConsistentRead: true,
      },
      undefined,
    )
  ).items;

/** The attempts made so far to deliver one event to one webhook, strongly consistent. */
export const listEventDeliveries = (
  projectId: string,
  webhookId: string,
  eventTime: string,
  eventId: string,
): Promise<DeliveryRecord[]> =>
  queryAll<DeliveryRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :event)',
    ExpressionAttributeValues: {
      ':pk': projectKey(projectId).PK,
      ':event': webhookEventDeliveryPrefix(webhookId, eventTime, eventId),
    },
    ConsistentRead: true,
  });

/** Records one delivery attempt, kept `WEBHOOK_DELIVERY_DAYS` days. */
export const recordDelivery = (delivery: DeliveryRecord): Promise<void> =>
  writeItem({
    Put: {
      Item: Object.assign(
        webhookDeliveryKey(
          delivery.projectId,
          delivery.webhookId,
          delivery.eventTime,
          delivery.eventId,
          delivery.attempt,
        ),
        {
          entity: 'WebhookDelivery',
          [tableSchema.timeToLiveAttribute]:
            Math.floor(Date.parse(delivery.time) / 1000) + WEBHOOK_DELIVERY_DAYS * DAY_SECONDS,
        },
        delivery,
      ),
    },
  });
