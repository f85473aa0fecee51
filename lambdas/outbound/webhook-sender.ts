import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolveHost } from '@lambdas/domain/webhook-url';
import type { SendWebhook } from '@lambdas/use-cases/webhooks';

/** Every address a host name resolves to (IPv4 and IPv6), as the delivery checks them all. */
export const resolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * A lookup that answers only `address`: the connection goes to the address the delivery checked, never
 * to what a second lookup of the name might give (DNS rebinding). The name stays the TLS server name
 * and the `Host` header, so the receiver's certificate is checked for it as usual.
 */
const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all)
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };

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
