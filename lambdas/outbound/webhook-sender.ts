import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SendWebhook } from '@lambdas/use-cases/webhooks';
import { pinnedLookup } from './pinned-address';

/**
 * Sends a delivery: one POST to the pinned address, no redirect followed (Node's client follows none),
 * no connection kept, the whole exchange bounded by the request's timeout. The answer's body is read
 * and dropped.
 */
export const sendWebhook: SendWebhook = (delivery) =>
  new Promise((resolve) => {
    const send = delivery.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const signal = AbortSignal.timeout(delivery.timeoutMs);
    const outgoing = send(
      delivery.url,
      {
        method: 'POST',
        headers: { ...delivery.headers, 'Content-Length': String(Buffer.byteLength(delivery.body)) },
        lookup: pinnedLookup(delivery.address),
        agent: false,
        signal,
      },
      (response) => {
        response.resume();
        resolve({ statusCode: response.statusCode ?? 0 });
      },
    );
    outgoing.on('error', (error) =>
      resolve({
        error: signal.aborted ? `Timed out after ${delivery.timeoutMs} ms` : `Connection failed: ${error.message}`,
      }),
    );
    outgoing.end(delivery.body);
  });
