import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorText } from '@contract/errors';
import { call, uniqueEmail } from './harness';
import { type MockIdp, startMockIdp } from './mock-idp';
import { type NpmService, startNpmService } from './npm-start';

/**
 * `npm start` trusting a third-party OpenID Connect provider (oauth2-mock-server) instead of its
 * development one, as a dashboard developer points it at the company IdP: keys found through the
 * provider's discovery document, sessions judged exactly as the deployed authorizer judges them.
 */

const TEST_MS = 180_000;

let idp: MockIdp;
beforeAll(async () => {
  idp = await startMockIdp();
});
afterAll(() => idp?.stop());

describe('npm start with SESSION_ISSUER and SESSION_AUDIENCE', () => {
  let service: NpmService;
  beforeAll(async () => {
    service = await startNpmService({ SESSION_ISSUER: idp.issuer, SESSION_AUDIENCE: idp.audience });
  }, TEST_MS);
  afterAll(() => service?.stop());

  it('says which issuer it trusts', () => {
    expect(service.output().stdout).toContain(`Sessions: ID tokens of ${idp.issuer} for audience ${idp.audience}`);
  });

  it(
    'accepts a verified ID token of the provider, its keys found by discovery',
    async () => {
      const session = await idp.idTokenFor(uniqueEmail());
      expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
      const created = await call(service, 'POST', '/api/v1/tokens', {
        token: session,
        json: { name: 'ci', scopes: ['read:secrets'] },
      });
      expect(created.status).toBe(201);
    },
    TEST_MS,
  );

  it(
    'answers 401 with the contract body to a token for another audience',
    async () => {
      const session = await idp.sign({ sub: 'someone', email: uniqueEmail(), email_verified: true, aud: 'other-app' });
      const reply = await call(service, 'GET', '/api/v1/projects', { token: session });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ success: false, error: ErrorText.unauthorized });
    },
    TEST_MS,
  );

  it(
    'does not serve the development identity provider',
    async () => {
      const reply = await call(service, 'POST', '/_dev/idp/token', { json: { email: uniqueEmail() } });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.notFound });
      expect((await call(service, 'GET', '/_dev/idp/.well-known/jwks.json')).status).toBe(404);
    },
    TEST_MS,
  );
});

/**
 * An issuer in front of the mock provider whose discovery document the test controls: its tokens
 * name this issuer, its `jwks_uri` is the mock provider's key set.
 */
let discovery: 'up' | 'down' | 'wrong-issuer' = 'up';
let front: Server;
let frontIssuer: string;
beforeAll(async () => {
  front = createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration' || discovery === 'down') {
      res.writeHead(503).end('down');
      return;
    }
    const issuer = discovery === 'wrong-issuer' ? idp.issuer : frontIssuer;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ issuer, jwks_uri: `${idp.issuer}/jwks` }));
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  frontIssuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  front.closeAllConnections();
  front.close();
  await once(front, 'close');
});

const frontSession = () =>
  idp.sign({ iss: frontIssuer, sub: 'front-user', email: uniqueEmail(), email_verified: true });

const expectUnavailable = (reply: Awaited<ReturnType<typeof call>>) => {
  expect(reply.status).toBe(503);
  expect(reply.headers['retry-after']).toBe('1');
  expect(reply.body).toEqual({ success: false, error: ErrorText.unavailable });
};

describe('discovery of the provider’s key set', () => {
  let service: NpmService;
  beforeAll(async () => {
    service = await startNpmService({ SESSION_ISSUER: frontIssuer, SESSION_AUDIENCE: idp.audience });
  }, TEST_MS);
  afterAll(() => service?.stop());

  it(
    'fails closed while discovery fails or names another issuer, and retries on a later request',
    async () => {
      discovery = 'down';
      expectUnavailable(await call(service, 'GET', '/api/v1/projects', { token: await frontSession() }));
      discovery = 'wrong-issuer';
      expectUnavailable(await call(service, 'GET', '/api/v1/projects', { token: await frontSession() }));
      discovery = 'up';
      expect((await call(service, 'GET', '/api/v1/projects', { token: await frontSession() })).status).toBe(200);
    },
    TEST_MS,
  );
});

describe('npm start with SESSION_JWKS_URL', () => {
  let service: NpmService;
  beforeAll(async () => {
    service = await startNpmService({
      SESSION_ISSUER: frontIssuer,
      SESSION_AUDIENCE: idp.audience,
      SESSION_JWKS_URL: `${idp.issuer}/jwks`,
    });
  }, TEST_MS);
  afterAll(() => {
    discovery = 'up';
    return service?.stop();
  });

  it(
    'uses that key set without asking for the discovery document',
    async () => {
      discovery = 'down';
      expect((await call(service, 'GET', '/api/v1/projects', { token: await frontSession() })).status).toBe(200);
    },
    TEST_MS,
  );
});
