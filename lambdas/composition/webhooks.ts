import { dataKeys, decryptWebhookSecret, encryptWebhookSecret } from '@lambdas/crypto/envelope';
import { keyWrapper } from '@lambdas/crypto/key-wrapper';
import { getMember } from '@lambdas/data/project-repository';
import * as webhookRepository from '@lambdas/data/webhook-repository';
import { clock } from '@lambdas/domain/clock';
import { resolveHost } from '@lambdas/outbound/pinned-address';
import { sendWebhook } from '@lambdas/outbound/webhook-sender';
import { randomWebhookIds, webhookDelivery, webhookUseCases } from '@lambdas/use-cases/webhooks';

/**
 * Whether webhooks may deliver to loopback: only where `npm start` runs with `WEBHOOKS_ALLOW_LOOPBACK=1`
 * (a receiver on this machine, for testing), never inside Lambda, whatever its environment says.
 */
export const allowLoopback = (env: NodeJS.ProcessEnv): boolean =>
  env.WEBHOOKS_ALLOW_LOOPBACK === '1' && !env.AWS_LAMBDA_FUNCTION_NAME;

const network = { policy: { allowLoopback: allowLoopback(process.env) }, resolve: resolveHost };

const crypto = { keys: dataKeys(keyWrapper), seal: encryptWebhookSecret, open: decryptWebhookSecret };

const store = { ...webhookRepository, getMember };

/** A project's webhooks (the composition root of their routes). */
export const webhooks = webhookUseCases({ store, crypto, network, ids: randomWebhookIds });

/** The delivery of audit events to webhooks (the queue's function, and `npm start`). */
export const deliveries = webhookDelivery({ store, crypto, network, send: sendWebhook, now: () => clock.now() });
