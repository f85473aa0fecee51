import diagnosticsChannel from 'node:diagnostics_channel';
import { type ClientRequest, request } from 'node:http';
import { type CountingProxy, startCountingProxy } from '../../../measure/dynamo-proxy';

/**
 * The counting proxy's `settled`: what the work counts wait on before they are read. A request the
 * client started and gave up before it reached the proxy (its kept-alive connection closed under it,
 * and the SDK sent it again on another) must not hold it for ever.
 */
let proxy: CountingProxy;
beforeAll(async () => {
  // Nothing here reaches DynamoDB: the one request is given up as it starts.
  proxy = await startCountingProxy('http://127.0.0.1:9');
});
afterAll(() => proxy.close());

it('settles once a request that started and never arrived has ended', async () => {
  const giveUp = (message: unknown) => (message as { request: ClientRequest }).request.destroy();
  diagnosticsChannel.subscribe('http.client.request.start', giveUp);
  try {
    const { port } = new URL(proxy.endpoint);
    const started = request({ host: '127.0.0.1', port, method: 'POST' });
    const ended = new Promise((resolve) => started.once('close', resolve));
    started.on('error', () => undefined);
    started.end('{}');
    await ended;
  } finally {
    diagnosticsChannel.unsubscribe('http.client.request.start', giveUp);
  }
  await expect(proxy.settled()).resolves.toBeUndefined();
});
