import { createHmac } from 'node:crypto';
import type { AuditEvent } from '@contract/audit';
import { dataKeys, decryptWebhookSecret, encryptWebhookSecret, type KeyWrapper } from '@lambdas/crypto/envelope';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import type { DeliveryRecord, ProjectRecord, WebhookRecord } from '@lambdas/domain/records';
import type { ResolveHost } from '@lambdas/domain/webhook-url';
import { MAX_DELIVERY_ATTEMPTS } from '@lambdas/domain/webhooks';
import { type WebhookRequest, type WebhookResponse, webhookDelivery } from '@lambdas/use-cases/webhooks';

const PROJECT = 'prj_AAAAAAAAAAAAAAAA';
const KEY = new Uint8Array(32).fill(7);
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJKL';
const now = new Date('2026-11-29T06:00:00.000Z');

/** A key wrapper whose wrapped form is the key itself: enough to seal and open in memory. */
const plainWrapper: KeyWrapper = {
  generate: async () => ({ plaintext: KEY, wrapped: KEY }),
  unwrap: async (_projectId, wrapped) => wrapped,
};

const webhookOf = (webhookId: string, fields: Partial<WebhookRecord> = {}): WebhookRecord => ({
  projectId: PROJECT,
  webhookId,
  url: 'https://hooks.example.com/in',
  events: ['secret.*'],
  environments: null,
  createdAt: '2026-11-29T05:00:00.000Z',
  createdBy: 'user-1',
  secret: encryptWebhookSecret(KEY, PROJECT, webhookId, SECRET),
  ...fields,
});

const secretEvent = (environment = 'production'): AuditEvent =>
  auditEvent('secret.updated', systemOrigin, now, { projectId: PROJECT }, { environment });

/** The delivery over an in-memory table, a resolver and a receiver that answer what the test says. */
const world = (options: { webhooks: WebhookRecord[]; addresses?: string[]; answer?: WebhookResponse }) => {
  const webhooks = new Map(options.webhooks.map((webhook) => [webhook.webhookId, webhook]));
  const deliveries: DeliveryRecord[] = [];
  const sent: WebhookRequest[] = [];
  const project: ProjectRecord = { projectId: PROJECT, name: 'p', createdAt: now.toISOString(), dataKey: KEY };
  const resolve: ResolveHost = async () => options.addresses ?? ['93.184.215.14'];
  const delivery = webhookDelivery({
    store: {
      listWebhooks: async () => [...webhooks.values()],
      getWebhook: async (_projectId, webhookId) => webhooks.get(webhookId),
      getProject: async () => project,
      recordDelivery: async (record) => {
        deliveries.push(record);
      },
      listEventDeliveries: async (_projectId, webhookId, _time, eventId) =>
        deliveries.filter((record) => record.webhookId === webhookId && record.eventId === eventId),
    },
    crypto: { keys: dataKeys(plainWrapper), open: decryptWebhookSecret },
    network: { policy: { allowLoopback: false }, resolve },
    send: async (request) => {
      sent.push(request);
      return options.answer ?? { statusCode: 204 };
    },
    now: () => now,
  });
  return { delivery, webhooks, deliveries, sent };
};

describe('webhookDelivery', () => {
  it('finds the webhooks an event reaches: by pattern, environment and registration time; a ping only its own', async () => {
    const { delivery } = world({
      webhooks: [
        webhookOf('whk_all'),
        webhookOf('whk_staging', { environments: ['staging'] }),
        webhookOf('whk_members', { events: ['member.*'] }),
        webhookOf('whk_later', { createdAt: '2026-11-29T07:00:00.000Z' }),
      ],
    });
    expect((await delivery.jobsFor(secretEvent())).map((job) => job.webhookId)).toEqual(['whk_all']);
    const ping = auditEvent('webhook.pinged', systemOrigin, now, { projectId: PROJECT, webhookId: 'whk_members' });
    expect((await delivery.jobsFor(ping)).map((job) => job.webhookId)).toEqual(['whk_members']);
    const noProject = auditEvent('token.created', systemOrigin, now);
    expect(await delivery.jobsFor(noProject)).toEqual([]);
  });

  it('signs the event exactly as the trail has it, to the checked address, and records the delivery', async () => {
    const { delivery, sent, deliveries } = world({ webhooks: [webhookOf('whk_all')] });
    const event = secretEvent();
    const [job] = await delivery.jobsFor(event);
    expect(job && (await delivery.attempt(job, 1))).toBe('delivered');
    const [request] = sent;
    expect(request?.body).toBe(JSON.stringify(event));
    expect(request?.address).toBe('93.184.215.14');
    expect(request?.url.hostname).toBe('hooks.example.com');
    expect(request?.timeoutMs).toBe(10_000);
    const t = Math.floor(now.getTime() / 1000);
    const v1 = createHmac('sha256', SECRET).update(`${t}.${request?.body}`).digest('hex');
    expect(request?.headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'secrets-service-webhooks',
      'Secrets-Event-Id': event.id,
      'Secrets-Signature': `t=${t},v1=${v1}`,
    });
    expect(deliveries).toEqual([
      expect.objectContaining({ eventId: event.id, attempt: 1, statusCode: 204, outcome: 'delivered', error: null }),
    ]);
    expect(job && (await delivery.settled(job))).toBe(true);
  });

  it('asks for another attempt on a non-2xx answer or no answer, and fails the last', async () => {
    for (const answer of [{ statusCode: 500 }, { statusCode: 302 }, { error: 'Timed out after 10000 ms' }]) {
      const { delivery, deliveries } = world({ webhooks: [webhookOf('whk_all')], answer });
      const [job] = await delivery.jobsFor(secretEvent());
      if (!job) throw new Error('no job');
      expect(await delivery.attempt(job, 1)).toBe('retrying');
      expect(await delivery.settled(job)).toBe(false);
      expect(await delivery.attempt(job, MAX_DELIVERY_ATTEMPTS)).toBe('failed');
      expect(await delivery.settled(job)).toBe(true);
      expect(deliveries.map((record) => record.outcome)).toEqual(['retrying', 'failed']);
    }
  });

  it('checks the address again at delivery: a host re-pointed at a private address gets nothing', async () => {
    for (const address of ['169.254.169.254', '10.0.0.5', '127.0.0.1', '::ffff:192.168.1.1']) {
      const { delivery, sent, deliveries } = world({ webhooks: [webhookOf('whk_all')], addresses: [address] });
      const [job] = await delivery.jobsFor(secretEvent());
      expect(job && (await delivery.attempt(job, 1))).toBe('retrying');
      expect(sent).toEqual([]);
      expect(deliveries[0]?.error).toMatch(/^Refused: .*not a public address$/);
      expect(deliveries[0]?.statusCode).toBeNull();
    }
  });

  it('sends nothing and records nothing for a webhook deleted meanwhile', async () => {
    const { delivery, webhooks, sent, deliveries } = world({ webhooks: [webhookOf('whk_all')] });
    const [job] = await delivery.jobsFor(secretEvent());
    webhooks.clear();
    expect(job && (await delivery.attempt(job, 2))).toBe('gone');
    expect(sent).toEqual([]);
    expect(deliveries).toEqual([]);
  });
});
