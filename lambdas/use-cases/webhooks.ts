import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import {
  WEBHOOK_ID_PREFIX,
  WEBHOOK_ID_RANDOM_LENGTH,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SECRET_RANDOM_LENGTH,
} from '@contract/identifiers';
import type { DataKeys } from '@lambdas/crypto/envelope';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { BadRequestError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type {
  DeliveryOutcome,
  DeliveryRecord,
  MemberRecord,
  ProjectRecord,
  WebhookRecord,
} from '@lambdas/domain/records';
import { canManageEnvironments } from '@lambdas/domain/roles';
import { randomBase62 } from '@lambdas/domain/token-format';
import { checkWebhookUrl, type ResolveHost, type WebhookUrlPolicy } from '@lambdas/domain/webhook-url';
import { MAX_DELIVERY_ATTEMPTS, signatureHeader, webhookReceives } from '@lambdas/domain/webhooks';

/** What the webhook use cases read and write (the repository; in-memory fakes in unit tests). */
export interface WebhookStore {
  /** One membership, strongly consistent. */
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  /** A project, strongly consistent (its data key). */
  getProject(projectId: string): Promise<ProjectRecord | undefined>;
  getWebhook(projectId: string, webhookId: string): Promise<WebhookRecord | undefined>;
  listWebhooks(projectId: string): Promise<WebhookRecord[]>;
  /**
   * Registers a webhook with its event while the caller manages the project, under the project's limit,
   * storing `newDataKey` as the project's first: 404, 409, or `keyChanged` when a key was stored first.
   */
  createWebhook(
    managerUserId: string,
    webhook: WebhookRecord,
    newDataKey: Uint8Array | undefined,
    event: AuditEvent,
  ): Promise<'written' | 'keyChanged'>;
  /** Deletes a webhook with its event while the caller manages the project: `false` when either no longer holds. */
  deleteWebhook(managerUserId: string, projectId: string, webhookId: string, event: AuditEvent): Promise<boolean>;
  /** Records a ping's event while the caller manages the project and the webhook is there. */
  recordPing(managerUserId: string, projectId: string, webhookId: string, event: AuditEvent): Promise<boolean>;
  /** A webhook's latest delivery attempts, newest event first. */
  listDeliveries(projectId: string, webhookId: string): Promise<DeliveryRecord[]>;
  /** The attempts made so far to deliver one event to one webhook. */
  listEventDeliveries(
    projectId: string,
    webhookId: string,
    eventTime: string,
    eventId: string,
  ): Promise<DeliveryRecord[]>;
  recordDelivery(delivery: DeliveryRecord): Promise<void>;
}

/** How a webhook's signing secret is sealed and opened under its project's data key. */
export interface WebhookCrypto {
  readonly keys: DataKeys;
  seal(key: Uint8Array, projectId: string, webhookId: string, secret: string): Uint8Array;
  open(key: Uint8Array, projectId: string, webhookId: string, sealed: Uint8Array): string;
}

/** Where webhooks may deliver, and how a host's addresses are found. */
export interface WebhookNetwork {
  readonly policy: WebhookUrlPolicy;
  readonly resolve: ResolveHost;
}

/** New ids and signing secrets: random in the service, predictable in unit tests. */
export interface WebhookIds {
  newWebhookId(): string;
  newWebhookSecret(): string;
}

/** The service's webhook ids and secrets: random base62. */
export const randomWebhookIds: WebhookIds = {
  newWebhookId: () => `${WEBHOOK_ID_PREFIX}${randomBase62(WEBHOOK_ID_RANDOM_LENGTH)}`,
  newWebhookSecret: () => `${WEBHOOK_SECRET_PREFIX}${randomBase62(WEBHOOK_SECRET_RANDOM_LENGTH)}`,
};

/** What a webhook's registration asks for. */
export interface NewWebhook {
  readonly url: string;
  readonly events: readonly string[];
  readonly environments?: readonly string[];
}

/** A webhook as the API answers it: never its secret. */
const shown = (webhook: WebhookRecord) => ({
  id: webhook.webhookId,
  url: webhook.url,
  events: webhook.events,
  environments: webhook.environments,
  createdAt: webhook.createdAt,
});

/** The origin of a webhook's URL, as its events record it: a path or query may hold the receiver's own secret. */
const originOf = (url: string): string => new URL(url).origin;

/** Attempts at registering when another write stores the project's first data key meanwhile: one more read. */
const REGISTER_ATTEMPTS = 2;

/** The webhook routes' use cases over their ports. */
export const webhookUseCases = ({
  store,
  crypto,
  network,
  ids,
}: {
  readonly store: WebhookStore;
  readonly crypto: WebhookCrypto;
  readonly network: WebhookNetwork;
  readonly ids: WebhookIds;
}) => {
  /** The caller's membership, which must manage the project (404 for a non-member, 403 for a plain member). */
  const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
    const membership = await store.getMember(projectId, caller.userId);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageEnvironments(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    return membership;
  };

  /** The webhook of a project the caller manages (404 when there is none of that id). */
  const requireWebhook = async (caller: Principal, projectId: string, webhookId: string): Promise<WebhookRecord> => {
    const [, webhook] = await Promise.all([requireManager(caller, projectId), store.getWebhook(projectId, webhookId)]);
    if (!webhook) throw new NotFoundError(ErrorText.webhookNotFound);
    return webhook;
  };

  /** Registers a webhook; its signing secret is answered this once and stored only sealed. */
  const createWebhook = async (
    caller: Principal,
    projectId: string,
    input: NewWebhook,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [, firstRead] = await Promise.all([requireManager(caller, projectId), store.getProject(projectId)]);
    const target = await checkWebhookUrl(input.url, network.policy, network.resolve);
    if (!target.ok) throw new BadRequestError(ErrorText.validation, [{ path: 'url', message: target.reason }]);
    const webhookId = ids.newWebhookId();
    const secret = ids.newWebhookSecret();
    const event = auditEvent('webhook.created', origin, now, { projectId, webhookId }, { url: originOf(input.url) });
    let project = firstRead;
    for (let attempt = 1; ; attempt += 1) {
      const key = await crypto.keys.dataKeyFor(projectId, project?.dataKey);
      const webhook: WebhookRecord = {
        projectId,
        webhookId,
        url: input.url,
        events: [...new Set(input.events)],
        environments: input.environments === undefined ? null : [...new Set(input.environments)],
        createdAt: toIso(now),
        createdBy: caller.userId,
        secret: crypto.seal(key.plaintext, projectId, webhookId, secret),
      };
      const outcome = await store.createWebhook(caller.userId, webhook, key.created ? key.wrapped : undefined, event);
      if (outcome === 'written') return { ...shown(webhook), secret };
      if (attempt >= REGISTER_ATTEMPTS) throw new Error(`The data key of project ${projectId} keeps changing`);
      project = await store.getProject(projectId);
    }
  };

  /** The project's webhooks, oldest first. */
  const listWebhooks = async (caller: Principal, projectId: string) => {
    const [, webhooks] = await Promise.all([requireManager(caller, projectId), store.listWebhooks(projectId)]);
    return webhooks
      .map(shown)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  };

  /** Deletes a webhook: nothing more is delivered to it. */
  const deleteWebhook = async (
    caller: Principal,
    projectId: string,
    webhookId: string,
    origin: RequestOrigin,
    now: Date,
  ): Promise<void> => {
    const webhook = await requireWebhook(caller, projectId, webhookId);
    const event = auditEvent('webhook.deleted', origin, now, { projectId, webhookId }, { url: originOf(webhook.url) });
    if (!(await store.deleteWebhook(caller.userId, projectId, webhookId, event))) {
      // The caller stopped managing the project, or the webhook went: say which.
      await requireManager(caller, projectId);
      throw new NotFoundError(ErrorText.webhookNotFound);
    }
  };

  /** Records a `webhook.pinged` event, which is delivered to this webhook only, as any event is. */
  const pingWebhook = async (
    caller: Principal,
    projectId: string,
    webhookId: string,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const webhook = await requireWebhook(caller, projectId, webhookId);
    const event = auditEvent('webhook.pinged', origin, now, { projectId, webhookId }, { url: originOf(webhook.url) });
    if (!(await store.recordPing(caller.userId, projectId, webhookId, event))) {
      await requireManager(caller, projectId);
      throw new NotFoundError(ErrorText.webhookNotFound);
    }
    return { eventId: event.id };
  };

  /** A webhook's latest delivery attempts, newest first. */
  const listDeliveries = async (caller: Principal, projectId: string, webhookId: string) => {
    const [, deliveries] = await Promise.all([
      requireWebhook(caller, projectId, webhookId),
      store.listDeliveries(projectId, webhookId),
    ]);
    return deliveries.map((delivery) => ({
      time: delivery.time,
      eventId: delivery.eventId,
      event: delivery.event,
      attempt: delivery.attempt,
      statusCode: delivery.statusCode,
      durationMs: delivery.durationMs,
      outcome: delivery.outcome,
      error: delivery.error,
    }));
  };

  return { createWebhook, listWebhooks, deleteWebhook, pingWebhook, listDeliveries };
};

/** One event to deliver to one webhook. */
export interface DeliveryJob {
  readonly projectId: string;
  readonly webhookId: string;
  readonly event: AuditEvent;
}

/** The request of one delivery attempt: to `address`, the checked address of `url`'s host. */
export interface WebhookRequest {
  readonly url: URL;
  readonly address: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** What the receiver answered: its status, or why there was none. */
export type WebhookResponse = { readonly statusCode: number } | { readonly error: string };

/** Sends one delivery's request (HTTPS in the service; no redirect is followed). */
export type SendWebhook = (request: WebhookRequest) => Promise<WebhookResponse>;

/** How long a receiver has to answer a delivery. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Whether a webhook receives an event: a ping only the webhook it names, any other as its filter says. */
const receives = (webhook: WebhookRecord, event: AuditEvent): boolean =>
  event.type === 'webhook.pinged' ? event.target.webhookId === webhook.webhookId : webhookReceives(webhook, event);

/**
 * The delivery of audit events to webhooks, one code path for the deployed queue's function and for
 * `npm start`: which webhooks receive an event, and one attempt (check the address again, sign, send,
 * record). When to try again is the caller's: the queue's visibility deployed, a timer locally.
 */
export const webhookDelivery = ({
  store,
  crypto,
  network,
  send,
  now,
}: {
  readonly store: Pick<
    WebhookStore,
    'listWebhooks' | 'getWebhook' | 'getProject' | 'recordDelivery' | 'listEventDeliveries'
  >;
  readonly crypto: Pick<WebhookCrypto, 'keys' | 'open'>;
  readonly network: WebhookNetwork;
  readonly send: SendWebhook;
  readonly now: () => Date;
}) => {
  /**
   * The deliveries an event makes: one per webhook of its project that receives it and was registered
   * by the event's time (a later attempt never reaches a webhook registered since).
   */
  const jobsFor = async (event: AuditEvent): Promise<DeliveryJob[]> => {
    const { projectId } = event.target;
    if (projectId === null) return [];
    const webhooks = await store.listWebhooks(projectId);
    return webhooks
      .filter((webhook) => webhook.createdAt <= event.time && receives(webhook, event))
      .map((webhook) => ({ projectId, webhookId: webhook.webhookId, event }));
  };

  /** The request of an attempt, or why none may be sent (the address is no longer public). */
  const requestFor = async (
    webhook: WebhookRecord,
    event: AuditEvent,
    body: string,
    at: Date,
  ): Promise<WebhookRequest | string> => {
    const target = await checkWebhookUrl(webhook.url, network.policy, network.resolve);
    if (!target.ok) return `Refused: ${target.reason}`;
    const project = await store.getProject(webhook.projectId);
    if (project?.dataKey === undefined) throw new Error(`Project ${webhook.projectId} has a webhook but no data key`);
    const key = await crypto.keys.dataKeyFor(webhook.projectId, project.dataKey);
    const secret = crypto.open(key.plaintext, webhook.projectId, webhook.webhookId, webhook.secret);
    return {
      url: target.url,
      address: target.address,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'secrets-service-webhooks',
        'Secrets-Event-Id': event.id,
        'Secrets-Signature': signatureHeader(secret, Math.floor(at.getTime() / 1000), body),
      },
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    };
  };

  /**
   * Attempt number `attempt` of a delivery: its outcome, recorded (`retrying` asks the caller to try
   * again later, `failed` after the last attempt), or `gone` when the webhook was deleted meanwhile
   * (nothing is sent or recorded).
   */
  const attempt = async (job: DeliveryJob, attempt: number): Promise<DeliveryOutcome | 'gone'> => {
    const webhook = await store.getWebhook(job.projectId, job.webhookId);
    if (!webhook) return 'gone';
    const body = JSON.stringify(job.event);
    const startedAt = now();
    const request = await requestFor(webhook, job.event, body, startedAt);
    const started = performance.now();
    const response: WebhookResponse = typeof request === 'string' ? { error: request } : await send(request);
    const durationMs = Math.round(performance.now() - started);
    const statusCode = 'statusCode' in response ? response.statusCode : null;
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const outcome: DeliveryOutcome = delivered ? 'delivered' : attempt >= MAX_DELIVERY_ATTEMPTS ? 'failed' : 'retrying';
    await store.recordDelivery({
      projectId: job.projectId,
      webhookId: job.webhookId,
      time: toIso(startedAt),
      eventId: job.event.id,
      eventTime: job.event.time,
      event: job.event.type,
      attempt,
      statusCode,
      durationMs,
      outcome,
      error: 'error' in response ? response.error : null,
    });
    return outcome;
  };

  /**
   * Whether a delivery needs no more attempts: one was delivered, or the last failed. The queue's
   * function asks before each later attempt, as one message carries an event to every webhook.
   */
  const settled = async (job: DeliveryJob): Promise<boolean> =>
    (await store.listEventDeliveries(job.projectId, job.webhookId, job.event.time, job.event.id)).some(
      (delivery) => delivery.outcome !== 'retrying',
    );

  return { jobsFor, attempt, settled };
};
