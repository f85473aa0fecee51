import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { secretHeadKey, secretVersionKey } from '@lambdas/data/keys';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * Comparing two environments and promoting secrets from one to another, black box against `npm start`
 * (DynamoDB Local read and written directly only to look at what the service stores, or to make an item
 * as the service wrote it before value digests).
 */

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = process.env.TEST_TABLE_NAME ?? '';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
let service: LocalService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  documentClient.destroy();
});

type Item = Record<string, unknown>;

const getItem = async (key: { PK: string; SK: string }): Promise<Item> => {
  const read = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!read.Item) throw new Error(`no item at ${key.PK} ${key.SK}`);
  return read.Item;
};

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const secrets = (projectId: string, environment: string) => `${project(projectId)}/environments/${environment}/secrets`;

/** A signed-in user (their profile exists, so they can be added as a member) and their session. */
const signedIn = async (label: string) => {
  const email = uniqueEmail(label);
  const session = await sessionFor(service, email);
  expect((await arrange(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
  return { email, session };
};

/** Writes `values` into an environment as one PATCH, answering each secret's new version by name. */
const seed = async (session: string, projectId: string, environment: string, values: Record<string, string>) => {
  const written = await arrange(service, 'PATCH', secrets(projectId, environment), {
    token: session,
    json: { set: values },
  });
  expect(written.status).toBe(200);
  return Object.fromEntries(
    (written.body.data as { name: string; version: number }[]).map((entry) => [entry.name, entry.version]),
  );
};

/** The stored head and current version item of a secret. */
const storedItems = async (projectId: string, environment: string, name: string) => {
  const head = await getItem(secretHeadKey(projectId, environment, name));
  const version = await getItem(
    secretVersionKey(projectId, environment, name, String(head.life), Number(head.version)),
  );
  return { head, version };
};

const hex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');

describe('value digests', () => {
  it('stores with every value written a 32-byte digest on its head and its version, the same for the same value', async () => {
    const owner = await signedIn('owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one', OTHER: 'two' });
    const put = await call(service, 'PUT', `${secrets(projectId, 'production')}/API_KEY`, {
      token: owner.session,
      json: { value: 'one' },
    });
    expect(put.status).toBe(201);
    await seed(owner.session, projectId, 'production', { API_KEY: 'changed' });
    const restored = await call(service, 'POST', `${secrets(projectId, 'production')}/API_KEY/restore`, {
      token: owner.session,
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);

    const staging = await storedItems(projectId, 'staging', 'API_KEY');
    const other = await storedItems(projectId, 'staging', 'OTHER');
    const production = await storedItems(projectId, 'production', 'API_KEY');
    for (const { head, version } of [staging, other, production]) {
      expect(head.valueDigest).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(head.valueDigest as Uint8Array)).toHaveLength(32);
      expect(hex(version.valueDigest)).toBe(hex(head.valueDigest));
    }
    // The restore of version 1 ('one') stores the digest of 'one' again, as its first write did.
    expect(hex(production.head.valueDigest)).toBe(hex(staging.head.valueDigest));
    expect(hex(other.head.valueDigest)).not.toBe(hex(staging.head.valueDigest));
    const changed = await getItem(
      secretVersionKey(projectId, 'production', 'API_KEY', String(production.head.life), 2),
    );
    expect(hex(changed.valueDigest)).not.toBe(hex(staging.head.valueDigest));
  });

  it('stores no digest with a delete', async () => {
    const owner = await signedIn('owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one' });
    const deleted = await call(service, 'DELETE', `${secrets(projectId, 'staging')}/API_KEY`, {
      token: owner.session,
    });
    expect(deleted.status).toBe(200);
    const { head, version } = await storedItems(projectId, 'staging', 'API_KEY');
    expect([head.valueDigest, version.valueDigest, head.ciphertext]).toEqual([undefined, undefined, undefined]);
  });
});
