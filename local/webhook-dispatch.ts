import type { AuditEvent } from '@contract/audit';
import type { DeliveryJob } from '@lambdas/use-cases/webhooks';
import type { EventSink } from './event-log';

/**
 * The local stand-in for the deployed path event bus → rule → queue → delivery function: `npm start`
 * hands each audit event its event log reads to the same delivery use case, and tries a failed delivery
 * again after the same delays, with a timer in place of the queue's visibility timeout. Deliveries run
 * beside the event log, never in its way: a slow receiver delays no event line and no other webhook.
 */

/** The line `npm start` prints when `WEBHOOKS_ALLOW_LOOPBACK=1` lets webhooks reach this machine. */
export const LOOPBACK_NOTICE =
  'Webhooks: WEBHOOKS_ALLOW_LOOPBACK=1, so http://127.0.0.1:<port>/… receivers are accepted and delivered to (for testing; never deployed)';

/** A running dispatch of events to webhooks. */
export interface WebhookDispatch {
  /** The sink that starts the deliveries of each event. */
  readonly sink: EventSink;
  /** Stops the retries waiting and resolves once no attempt is under way. */
  stop(): Promise<void>;
}

/**
 * Starts delivering. The delivery module is loaded with the first event, once the local service has set
 * the table and key settings the functions read at load.
 */
export const startWebhookDispatch = (warn: (line: string) => void = (line) => console.error(line)): WebhookDispatch => {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  const delivery = () => {
    const { deliveries } = require('@lambdas/composition/webhooks') as typeof import('@lambdas/composition/webhooks');
    const { retryDelaySeconds } = require('@lambdas/domain/webhooks') as typeof import('@lambdas/domain/webhooks');
    return { deliveries, retryDelaySeconds };
  };

  const run = (job: DeliveryJob, attempt: number): void => {
    if (stopped) return;
    const work = (async () => {
      const { deliveries, retryDelaySeconds } = delivery();
      const outcome = await deliveries.attempt(job, attempt);
      const delay = outcome === 'retrying' ? retryDelaySeconds(attempt) : null;
      if (delay === null || stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        run(job, attempt + 1);
      }, delay * 1000);
      // A retry waiting never keeps the process alive.
      timer.unref();
      timers.add(timer);
    })().catch((error: unknown) => {
      warn(`Webhooks: could not deliver event ${job.event.id} to ${job.webhookId} (${String(error)}).`);
    });
    running.add(work);
    void work.finally(() => running.delete(work));
  };

  const sink = async (event: AuditEvent): Promise<void> => {
    try {
      const { deliveries } = await delivery();
      for (const job of await deliveries.jobsFor(event)) run(job, 1);
    } catch (error) {
      warn(`Webhooks: could not find the webhooks of event ${event.id} (${String(error)}).`);
    }
  };

  return {
    sink,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
};
