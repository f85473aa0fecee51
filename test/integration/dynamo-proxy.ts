import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through proxy in front of DynamoDB that counts the operations it forwards. */
export interface CountingProxy {
  readonly endpoint: string;
  /** Operations forwarded so far (X-Amz-Target without the API version, e.g. `GetItem`). */
  readonly operations: string[];
  close(): Promise<void>;
}

/** Starts a counting proxy to `target` on a free loopback port. */
export const startCountingProxy = async (target: string): Promise<CountingProxy> => {
  const upstream = new URL(target);
  const operations: string[] = [];
  const server = createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
    operations.push(operation);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    operations,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
