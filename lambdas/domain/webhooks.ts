import { createHmac } from 'node:crypto';
import type { AuditEvent } from '@contract/audit';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@contract/limits';

/** What a webhook receives: its event patterns and, when set, the environments it is limited to. */
export interface WebhookFilter {
  readonly events: readonly string[];
  readonly environments: readonly string[] | null;
}

/** Whether an event type matches a pattern: the type itself, or `prefix.*` for every type under `prefix.`. */
export const patternMatches = (pattern: string, type: string): boolean =>
  pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;

/**
 * Whether a webhook receives an event: its type matches one of the webhook's patterns and, for a
 * webhook limited to environments, the event was in one of them (an event of no environment is not).
 */
export const webhookReceives = (webhook: WebhookFilter, event: AuditEvent): boolean =>
  webhook.events.some((pattern) => patternMatches(pattern, event.type)) &&
  (webhook.environments === null ||
    (event.details.environment !== null && webhook.environments.includes(event.details.environment)));

/**
 * The `Secrets-Signature` header of a delivery: `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of
 * "<t>.<body>" under the webhook's secret>`. A receiver computes the same over the raw body it got and
 * compares, and refuses a `t` far from its own clock (a replay).
 */
export const signatureHeader = (secret: string, unixSeconds: number, body: string): string =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;

/** Seconds to wait after each failed attempt before the next (`WEBHOOK_RETRY_DELAYS_SECONDS`). */
export const RETRY_DELAYS_SECONDS = WEBHOOK_RETRY_DELAYS_SECONDS;

/** Attempts a delivery gets before it is failed. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds before the attempt after `attempt` (1-based), or `null` when it was the last. */
export const retryDelaySeconds = (attempt: number): number | null => RETRY_DELAYS_SECONDS[attempt - 1] ?? null;
