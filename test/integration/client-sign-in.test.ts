import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { SignInRefusedError } from '@client/errors';
import { createServiceAccountClient, type ServiceAccount } from '@client/service-account';
import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The typed client signing in as a service account by itself against the local service (the local
 * workload issuer's tokens, the STS stand-in's key): it reads what the service account's access
 * reaches, signs in again before its token expires (by a clock the test moves: no waiting), and once
 * more when the service stops taking its token.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const SUBJECT = 'repo:acme/app:ref:refs/heads/main';
const AUDIENCE = 'secrets-service';

/** An owner's project with API_KEY in production, and a service account reading production under `rule`. */
const world = async (rule: Record<string, unknown>) => {
  const session = await sessionFor(service, uniqueEmail('sa-client'));
  const projectId = await createProject(service, session);
  const put = await call(service, 'PUT', `/api/v1/projects/${projectId}/environments/production/secrets/API_KEY`, {
    token: session,
    json: { value: 'production-value' },
  });
  expect(put.status).toBe(201);
  const made = await call(service, 'POST', `/api/v1/projects/${projectId}/service-accounts`, {
    token: session,
    json: { name: 'reader', access: { production: 'read' } },
  });
  const serviceAccountId = made.body.data.id as string;
  const base = `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}`;
  expect((await call(service, 'POST', `${base}/trust-rules`, { token: session, json: rule })).status).toBe(201);
  return { session, projectId, serviceAccountId, base };
};

const oidcRule = () => ({
  kind: 'oidc',
  issuer: service.workload.issuer,
  audience: AUDIENCE,
  subject: 'repo:acme/*:ref:refs/heads/main',
});

/** A client of `account` whose sign-ins are counted, with a clock the test moves. */
const clientOf = (account: ServiceAccount) => {
  let at = Date.now();
  const signIns: string[] = [];
  const client = createServiceAccountClient({
    apiUrl: service.baseUrl,
    now: () => at,
    fetch: (request) => {
      const path = new URL(request.url).pathname;
      if (path.startsWith('/api/v1/auth/')) signIns.push(path);
      return globalThis.fetch(request);
    },
    serviceAccount: account,
  });
  return { client, signIns, move: (ms: number) => (at += ms) };
};

describe('createServiceAccountClient', () => {
  it('signs in with an OIDC token and reads the secret its access reaches', async () => {
    const { projectId, serviceAccountId } = await world(oidcRule());
    const { client, signIns } = clientOf({
      id: serviceAccountId,
      signIn: 'oidc',
      token: () => service.workload.issue({ sub: SUBJECT, aud: AUDIENCE }),
    });
    expect(signIns).toEqual([]);
    expect((await client.get(projectId, 'production', 'API_KEY')).value).toBe('production-value');
    expect(await client.export(projectId, 'production')).toEqual({ API_KEY: 'production-value' });
    await expect(client.get(projectId, 'staging', 'API_KEY')).rejects.toMatchObject({
      status: 403,
      error: ErrorText.environmentAccess,
    });
    expect(signIns).toEqual(['/api/v1/auth/oidc']);
  });

  it('signs in with AWS credentials (the STS stand-in’s key) and reads the secret', async () => {
    const { projectId, serviceAccountId } = await world({
      kind: 'aws',
      principals: ['arn:aws:iam::000000000000:role/local-ci'],
    });
    const { client, signIns } = clientOf({
      id: serviceAccountId,
      signIn: 'aws',
      credentials: async () => ({ ...service.sts.key }),
    });
    expect((await client.get(projectId, 'production', 'API_KEY')).value).toBe('production-value');
    expect(signIns).toEqual(['/api/v1/auth/aws']);
  });

  it('signs in with GitHub Actions’ ID token for the audience given', async () => {
    const { projectId, serviceAccountId } = await world(oidcRule());
    const audiences: (string | null)[] = [];
    const server: Server = createServer((incoming, outgoing) => {
      const audience = new URL(incoming.url ?? '/', 'http://127.0.0.1').searchParams.get('audience');
      audiences.push(audience);
      service.workload.issue({ sub: SUBJECT, aud: audience ?? 'none' }).then((value) => {
        outgoing.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ value }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as { port: number };
      const { client } = clientOf({
        id: serviceAccountId,
        signIn: 'github-actions',
        audience: AUDIENCE,
        env: {
          ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/token?api-version=2.0`,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
        },
      });
      expect((await client.get(projectId, 'production', 'API_KEY')).value).toBe('production-value');
      expect(audiences).toEqual([AUDIENCE]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('signs in again before a 60-second token expires, and reads with the new one', async () => {
    const { projectId, serviceAccountId } = await world(oidcRule());
    const { client, signIns, move } = clientOf({
      id: serviceAccountId,
      signIn: 'oidc',
      token: () => service.workload.issue({ sub: SUBJECT, aud: AUDIENCE }),
      ttlSeconds: 60,
    });
    await client.get(projectId, 'production', 'API_KEY');
    move(20_000);
    await client.get(projectId, 'production', 'API_KEY');
    expect(signIns).toHaveLength(1);
    // Less than half of its minute left: the next request signs in first.
    move(15_000);
    expect((await client.get(projectId, 'production', 'API_KEY')).value).toBe('production-value');
    expect(signIns).toHaveLength(2);
  });

  it('signs in once more when the service stops taking its token, then throws that refusal', async () => {
    const { session, projectId, serviceAccountId, base } = await world(oidcRule());
    const { client, signIns } = clientOf({
      id: serviceAccountId,
      signIn: 'oidc',
      token: () => service.workload.issue({ sub: SUBJECT, aud: AUDIENCE }),
    });
    await client.get(projectId, 'production', 'API_KEY');
    // Deleting the service account stops its token at once (401), and every sign-in after it.
    expect((await call(service, 'DELETE', base, { token: session })).status).toBe(200);
    const error = await client.get(projectId, 'production', 'API_KEY').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInRefusedError);
    expect(signIns).toHaveLength(2);
  });

  it('throws a refusal as a SignInRefusedError naming the service account', async () => {
    const { projectId, serviceAccountId } = await world(oidcRule());
    const { client } = clientOf({
      id: serviceAccountId,
      signIn: 'oidc',
      token: () => service.workload.issue({ sub: 'repo:evil/app:ref:refs/heads/main', aud: AUDIENCE }),
    });
    const error = await client.get(projectId, 'production', 'API_KEY').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInRefusedError);
    expect(error).toMatchObject({ serviceAccountId, status: 401, error: ErrorText.identityNotAccepted });
  });
});
