import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * A secret write racing its environment's delete and re-creation: the proxy holds the write's
 * transaction between the request's reads and its write while the environment is deleted and made
 * again under its name.
 */

let proxy: CountingProxy;
let service: LocalService;
beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startService({ dynamoEndpoint: proxy.endpoint });
});
afterAll(async () => {
  await service?.close();
  await proxy?.close();
});

describe('a secret write racing its environment made again', () => {
  it('lands in the new environment, counted and listed, never in the one deleted', async () => {
    const owner = await sessionFor(service, uniqueEmail('owner'));
    const projectId = await createProject(service, owner);
    const staging = `/api/v1/projects/${projectId}/environments/staging`;
    const remade = proxy.hold(
      'TransactWriteItems',
      (body) => JSON.stringify(body).includes('RACING_KEY'),
      async () => {
        expect((await call(service, 'DELETE', staging, { token: owner })).status).toBe(200);
        const made = await call(service, 'POST', `/api/v1/projects/${projectId}/environments`, {
          token: owner,
          json: { name: 'staging' },
        });
        expect(made.status).toBe(201);
      },
    );
    try {
      const written = await call(service, 'PUT', `${staging}/secrets/RACING_KEY`, {
        token: owner,
        json: { value: 'v' },
      });
      await remade.ran();
      expect([written.status, written.body.data?.version]).toEqual([201, 1]);
    } finally {
      remade.release();
    }
    const listed = await call(service, 'GET', `${staging}/secrets`, { token: owner });
    expect(listed.body.data.map((secret: { name: string }) => secret.name)).toEqual(['RACING_KEY']);
    const environments = await call(service, 'GET', `/api/v1/projects/${projectId}/environments`, { token: owner });
    expect(environments.body.data).toContainEqual(expect.objectContaining({ name: 'staging', secretCount: 1 }));
  });
});
