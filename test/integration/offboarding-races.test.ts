import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ErrorText } from '@contract/errors';
import { emailClaimKey } from '@lambdas/data/keys';
import type { OffboardingReport } from '@lambdas/use-cases/offboard';
import { decodeJwt } from 'jose';
import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * Writes that act on the user an address resolved to, racing what changes whom it resolves to: the
 * proxy holds the member write between the request's reads and its transaction while the race's
 * other side runs to its end.
 */

let proxy: CountingProxy;
let service: LocalService;
let offboardUser: (who: string, now: Date) => Promise<OffboardingReport>;
const dynamo = new DynamoDBClient({ endpoint: process.env.TEST_DYNAMODB_ENDPOINT });
beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startService({ dynamoEndpoint: proxy.endpoint });
  // The data layer reads the table's name when loaded, after the service has set it.
  ({ offboardUser } = (await import('@lambdas/composition/offboarding')).offboarding);
});
afterAll(async () => {
  await service?.close();
  await proxy?.close();
  dynamo.destroy();
});

/** Holds the next transaction that writes the member item of `userId` until `during` has run. */
const holdMemberWrite = (userId: string, during: () => Promise<unknown>) =>
  proxy.hold('TransactWriteItems', (body) => JSON.stringify(body).includes(`"MEMBER#${userId}"`), during);

/** Another user's newer session claims the address, as the authorizer records one. */
const claimForAnother = (email: string) =>
  dynamo.send(
    new PutItemCommand({
      TableName: process.env.TEST_TABLE_NAME,
      Item: marshall({
        ...emailClaimKey(email),
        entity: 'EmailClaim',
        email,
        userId: `another-${email}`,
        issuedAt: new Date(Date.now() + 60_000).toISOString(),
      }),
    }),
  );

/** A user who has signed in (their first request records their address); answers their user id. */
const signedIn = async (email: string): Promise<string> => {
  const session = await sessionFor(service, email);
  expect((await call(service, 'GET', '/api/v1/me', { token: session })).status).toBe(200);
  return String(decodeJwt(session).sub);
};

const memberIds = async (session: string, projectId: string): Promise<string[]> => {
  const reply = await call(service, 'GET', `/api/v1/projects/${projectId}/members`, { token: session });
  expect(reply.status).toBe(200);
  return reply.body.data.map((member: { userId: string }) => member.userId);
};

describe('add member racing', () => {
  it('an offboarding of the user adds nobody, and leaves no membership behind', async () => {
    const owner = await sessionFor(service, uniqueEmail('owner'));
    const email = uniqueEmail('leaver');
    const userId = await signedIn(email);
    const project = await createProject(service, owner);
    const hold = holdMemberWrite(userId, () => offboardUser(email, new Date()));
    try {
      const reply = await call(service, 'POST', `/api/v1/projects/${project}/members`, {
        token: owner,
        json: { email, role: 'admin' },
      });
      await hold.ran();
      expect(reply.body).toEqual({ success: false, error: ErrorText.userNotFound });
    } finally {
      hold.release();
    }
    expect(await memberIds(owner, project)).not.toContain(userId);
  });

  it('a new holder of the address fails the write instead of adding the previous one', async () => {
    const owner = await sessionFor(service, uniqueEmail('owner'));
    const email = uniqueEmail('renamed');
    const userId = await signedIn(email);
    const project = await createProject(service, owner);
    const hold = holdMemberWrite(userId, () => claimForAnother(email));
    try {
      const reply = await call(service, 'POST', `/api/v1/projects/${project}/members`, {
        token: owner,
        json: { email, role: 'member' },
      });
      await hold.ran();
      expect(reply.body).toEqual({ success: false, error: ErrorText.userNotFound });
    } finally {
      hold.release();
    }
    expect(await memberIds(owner, project)).not.toContain(userId);
  });
});

describe('remove member racing a new holder of the address', () => {
  it('fails the removal instead of removing the previous holder', async () => {
    const owner = await sessionFor(service, uniqueEmail('owner'));
    const email = uniqueEmail('member');
    const userId = await signedIn(email);
    const project = await createProject(service, owner);
    const added = await call(service, 'POST', `/api/v1/projects/${project}/members`, {
      token: owner,
      json: { email, role: 'member' },
    });
    expect(added.status).toBe(200);
    const hold = holdMemberWrite(userId, () => claimForAnother(email));
    try {
      const reply = await call(service, 'DELETE', `/api/v1/projects/${project}/members/${encodeURIComponent(email)}`, {
        token: owner,
      });
      await hold.ran();
      expect(reply.body).toEqual({ success: false, error: ErrorText.memberNotFound });
    } finally {
      hold.release();
    }
    expect(await memberIds(owner, project)).toContain(userId);
  });
});
