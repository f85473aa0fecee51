import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolveHost } from '@lambdas/domain/webhook-url';

/*
 * Connections to an address checked beforehand (lambdas/domain/webhook-url.ts, `checkHostAddresses`):
 * the webhook deliveries and the fetches of an OIDC issuer's documents resolve a host once, check every
 * address, and connect to the one checked, so a name re-pointed between the check and the connection
 * (DNS rebinding) cannot reach a private address.
 */

/** Every address a host name resolves to (IPv4 and IPv6), as the checks judge them all. */
export const resolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * A lookup that answers only `address`: the connection goes to the address checked, never to what a
 * second lookup of the name might give (DNS rebinding). The name stays the TLS server name and the
 * `Host` header, so the server's certificate is checked for it as usual.
 */
export const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all)
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };

/** A GET to a checked address. */
export interface PinnedGet {
  readonly url: URL;
  /** The checked address connected to; the URL's host stays the TLS name and `Host`. */
  readonly address: string;
  /** Ends the request (a timeout: `AbortSignal.timeout`). */
  readonly signal: AbortSignal;
  readonly accept: string;
  /** The most bytes of body read; more is a failure. */
  readonly maxBytes: number;
}

/** Why a pinned GET failed: a redirect, a body too large, a connection failed or aborted. */
export class PinnedGetError extends Error {
  override name = 'PinnedGetError';
}

/** Statuses a WHATWG `Response` must have no body with. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/**
 * One GET to the pinned address (`https`, or `http` where the caller allows it), no connection kept,
 * no redirect followed (a 3xx is a failure, as fetch's `redirect: 'error'`), the body read up to
 * `maxBytes` (more is a failure), all within `signal`. Answers a WHATWG `Response`, so code written
 * for fetch (jose's `customFetch`) reads it unchanged.
 */
export const pinnedGet = ({ url, address, signal, accept, maxBytes }: PinnedGet): Promise<Response> =>
  new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const fail = (message: string) => {
      outgoing.destroy();
      reject(new PinnedGetError(message));
    };
    const outgoing = send(
      url,
      { method: 'GET', headers: { accept }, lookup: pinnedLookup(address), agent: false, signal },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status >= 300 && status < 400) return fail(`Redirected (${status}); no redirect is followed`);
        if (status < 200 || status > 599) return fail(`Answered status ${status}`);
        const chunks: Buffer[] = [];
        let total = 0;
        incoming.on('data', (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > maxBytes) fail(`The body is larger than ${maxBytes} bytes`);
          else chunks.push(chunk);
        });
        incoming.on('error', (error) => fail(`The answer failed: ${error.message}`));
        incoming.on('end', () => {
          const headers = new Headers();
          const type = incoming.headers['content-type'];
          if (type !== undefined) headers.set('content-type', type);
          resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers }));
        });
      },
    );
    outgoing.on('error', (error) =>
      reject(new PinnedGetError(signal.aborted ? 'Timed out' : `Connection failed: ${error.message}`)),
    );
    outgoing.end();
  });
