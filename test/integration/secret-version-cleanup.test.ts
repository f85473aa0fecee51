import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { secretHeadKey, secretsPartition, secretVersionKey } from '@lambdas/data/keys';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS, setDynamoRequestTimeout } from '../../local/dynamodb-patience';

/**
 * The cleanup of an expired secret's versions, in process against DynamoDB Local: versions of two lives
 * of a secret are seeded, and the stream function is handed the REMOVE record DynamoDB's TTL writes when
 * it deletes the head (keys only: the stream's view is NEW_IMAGE).
 */

const ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const TABLE_NAME = process.env.TEST_TABLE_NAME ?? '';
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: ENDPOINT }));
const ENVIRONMENT = 'development';

let handler: (event: DynamoDBStreamEvent) => Promise<void>;
beforeAll(async () => {
  if (!ENDPOINT || !TABLE_NAME) throw new Error('integration tests need the global setup');
  // The data layer reads these when it loads.
  process.env.TABLE_NAME = TABLE_NAME;
  process.env.DYNAMODB_ENDPOINT = ENDPOINT;
  ({ purgeExpiredSecretVersionsHandler: handler } = await import('@lambdas/events/purge-expired-secret-versions'));
  // As patient with DynamoDB Local as the test services (test/integration/harness.ts): with the deployed
  // one second, a busy machine's slow answer to a BatchWriteItem failed the cleanup with a 503 once.
  setDynamoRequestTimeout(LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS);
});
afterAll(() => documents.destroy());

const newProject = () => `prj_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

const putItems = async (items: Record<string, unknown>[]) => {
  for (let start = 0; start < items.length; start += 25) {
    await documents.send(
      new BatchWriteCommand({
        RequestItems: { [TABLE_NAME]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
};

/** Versions 1..count of one life of a secret, as the secret writes store them. */
const seedVersions = (projectId: string, name: string, life: string, from: number, count: number) =>
  putItems(
    Array.from({ length: count }, (_, index) => ({
      ...secretVersionKey(projectId, ENVIRONMENT, name, life, from + index),
      entity: 'SecretVersion',
      name,
      version: from + index,
      updatedAt: '2026-01-01T00:00:00.000Z',
      updatedBy: { userId: 'user-1', email: null },
      deleted: false,
    })),
  );

const seedHead = (projectId: string, name: string, life: string, version: number) =>
  documents.send(
    new PutCommand({
      TableName: TABLE_NAME,
      Item: {
        ...secretHeadKey(projectId, ENVIRONMENT, name),
        entity: 'SecretHead',
        projectId,
        environment: ENVIRONMENT,
        name,
        life,
        version,
        updatedAt: '2026-02-01T00:00:00.000Z',
        updatedBy: { userId: 'user-1', email: null },
        exportBytes: 10,
      },
    }),
  );

/** The sort keys left in the environment's partition, sorted. */
const sortKeysOf = async (projectId: string): Promise<string[]> => {
  const { Items } = await documents.send(
    new QueryCommand({
      TableName: TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': secretsPartition(projectId, ENVIRONMENT) },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => item.SK as string).sort();
};

/** The stream record of a head's removal: by DynamoDB's TTL, unless `userIdentity` says otherwise (null: a caller's delete). */
const removal = (
  projectId: string,
  name: string,
  userIdentity: unknown = { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
): DynamoDBRecord => ({
  eventID: randomUUID(),
  eventName: 'REMOVE',
  eventSource: 'aws:dynamodb',
  ...(userIdentity !== null && { userIdentity }),
  dynamodb: {
    Keys: marshall(secretHeadKey(projectId, ENVIRONMENT, name)) as never,
    SequenceNumber: '1',
    SizeBytes: 100,
    StreamViewType: 'NEW_IMAGE',
  },
});

const version = (name: string, life: string, number: number) =>
  `VERSION#${name}#${life}#${String(number).padStart(10, '0')}`;

describe('the cleanup of an expired secret', () => {
  it("deletes the versions of the ended life only, keeping the current head's and another secret's", async () => {
    const projectId = newProject();
    await seedVersions(projectId, 'API', 'oldLife', 1, 3);
    // Written again after the delete expired: a new life, its head at version 2.
    await seedVersions(projectId, 'API', 'newLife', 1, 2);
    await seedHead(projectId, 'API', 'newLife', 2);
    // Another secret whose name starts with the first one's, and one of its lives that ended too.
    await seedVersions(projectId, 'API_KEY', 'oldLife', 1, 2);

    await handler({ Records: [removal(projectId, 'API')] });

    expect(await sortKeysOf(projectId)).toEqual(
      [
        'SECRET#API',
        version('API', 'newLife', 1),
        version('API', 'newLife', 2),
        version('API_KEY', 'oldLife', 1),
        version('API_KEY', 'oldLife', 2),
      ].sort(),
    );
  });

  it('deletes every version of the name when no head is there now, past one BatchWriteItem call of 25', async () => {
    const projectId = newProject();
    await seedVersions(projectId, 'DATABASE_URL', 'lifeOne', 1, 30);
    await seedVersions(projectId, 'DATABASE_URL', 'lifeTwo', 1, 4);
    await seedVersions(projectId, 'OTHER', 'lifeOne', 1, 1);

    await handler({ Records: [removal(projectId, 'DATABASE_URL')] });

    expect(await sortKeysOf(projectId)).toEqual([version('OTHER', 'lifeOne', 1)]);
  });

  it('deletes the ended life’s versions when version 1 of a new life replaces the head, and nothing for a later version', async () => {
    const projectId = newProject();
    await seedVersions(projectId, 'DSN', 'oldLife', 1, 3);
    await seedVersions(projectId, 'DSN', 'newLife', 1, 1);
    await seedHead(projectId, 'DSN', 'newLife', 1);
    const replaced = (version: number): DynamoDBRecord => ({
      eventID: randomUUID(),
      eventName: 'MODIFY',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        Keys: marshall(secretHeadKey(projectId, ENVIRONMENT, 'DSN')) as never,
        NewImage: marshall({ version }) as never,
        StreamViewType: 'NEW_IMAGE',
      },
    });

    await handler({ Records: [replaced(2)] });
    expect(await sortKeysOf(projectId)).toHaveLength(5);

    await handler({ Records: [replaced(1)] });
    expect(await sortKeysOf(projectId)).toEqual(['SECRET#DSN', version('DSN', 'newLife', 1)]);
  });

  it('leaves everything when the removal was not made by TTL (its filter passes none; the function checks too)', async () => {
    const projectId = newProject();
    await seedVersions(projectId, 'TOKEN', 'oldLife', 1, 2);
    const before = await sortKeysOf(projectId);

    await handler({
      Records: [removal(projectId, 'TOKEN', null), removal(projectId, 'TOKEN', { type: 'Service', principalId: 'x' })],
    });

    expect(before).toHaveLength(2);
    expect(await sortKeysOf(projectId)).toEqual(before);
  });
});
