import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { until } from '../../measure/until';
import { call, sessionFor, startService, uniqueEmail } from './harness';

/**
 * A transaction DynamoDB carried out whose answer comes too late for the client: the SDK gives up on
 * it and sends it again. The second send must succeed without writing again (the SDK gives every
 * TransactWriteItems an idempotency token, `ClientRequestToken`, and sends it again with it), so the
 * request answers as the first send did, instead of failing on the conditions the first one met.
 */

let proxy: CountingProxy;
let service: LocalService;
beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  // The test service's patience (five seconds for each answer), not the deployed function's one second:
  // the held answer is late whatever the limit, and every other call of the file may be slow on a busy
  // machine without failing (with one second, a warm-up read once answered 503 in a full run).
  service = await startService({ dynamoEndpoint: proxy.endpoint });
});
afterAll(async () => {
  await service?.close();
  await proxy?.close();
});

const transactions = () => proxy.calls.filter((forwarded) => forwarded.operation === 'TransactWriteItems').length;

/** Holds the next transaction's answer until the client has sent the transaction again. */
const answerTooLate = () => {
  const before = transactions();
  proxy.delayNextAnswer(
    'TransactWriteItems',
    until(
      () => (transactions() >= before + 2 ? true : undefined),
      () => ({ before, now: transactions() }),
    ),
  );
  return () => transactions() - before;
};

describe('a transaction answered too late and sent again', () => {
  it('creates one token and answers 201 with it', async () => {
    const session = await sessionFor(service, uniqueEmail('late'));
    expect((await call(service, 'GET', '/api/v1/tokens', { token: session })).status).toBe(200);
    const sent = answerTooLate();
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'late', scopes: ['read:secrets'] },
    });
    expect(sent()).toBeGreaterThanOrEqual(2);
    expect(created.status).toBe(201);
    const listed = await call(service, 'GET', '/api/v1/tokens', { token: session });
    expect(listed.body.data.map((token: { id: string }) => token.id)).toEqual([created.body.data.id]);
  });

  it('creates one project and answers 201 with it', async () => {
    const session = await sessionFor(service, uniqueEmail('late'));
    expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
    const sent = answerTooLate();
    const created = await call(service, 'POST', '/api/v1/projects', { token: session, json: { name: 'late' } });
    expect(sent()).toBeGreaterThanOrEqual(2);
    expect(created.status).toBe(201);
    const listed = await call(service, 'GET', '/api/v1/projects', { token: session });
    expect(listed.body.data.map((project: { projectId: string }) => project.projectId)).toEqual([
      created.body.data.projectId,
    ]);
  });
});
