import { ErrorText } from '@contract/errors';
import { mintToken } from '@lambdas/domain/token-format';
import { freePort } from '../../local/dynamodb-local';
import { type LocalService, startLocalService } from '../../local/service';
import { call, sessionFor, uniqueEmail } from './harness';

let service: LocalService;
beforeAll(async () => {
  // Nothing listens on this port: DynamoDB is "down" for this service.
  const deadEndpoint = `http://127.0.0.1:${await freePort()}`;
  service = await startLocalService({ dynamoEndpoint: deadEndpoint, tableName: 'absent', port: 0 });
});
afterAll(async () => {
  await service.close();
});

describe('when DynamoDB is unreachable', () => {
  it('answers a well-formed API token with 503 and Retry-After from the authorizer, never letting it through', async () => {
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: mintToken().rawToken });
    expect(reply.status).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toEqual({ success: false, error: ErrorText.unavailable });
  });

  it('answers 503 Service temporarily unavailable with Retry-After to a session', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const reply = await call(service, 'GET', '/api/v1/projects', { token: session });
    expect(reply.status).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toEqual({ success: false, error: ErrorText.unavailable });
  });

  it('still refuses a malformed token with 401, without the database', async () => {
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: 'svc_live_short' });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ success: false, error: ErrorText.unauthorized });
  });
});
