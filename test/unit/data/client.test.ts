import '../aws-env';
import { Readable } from 'node:stream';
import { documentClient, dynamo, getItem, transactWrite, writeIfCondition, writeItem } from '@lambdas/data/client';

describe('the DynamoDB client', () => {
  it('sends without the SDK logger middleware, which masks every input and output for no logger', () => {
    const steps = dynamo.middlewareStack.identify();
    expect(steps).not.toContain('loggerMiddleware - initialize');
    expect(steps).toContain('retryMiddleware - finalizeRequest');
  });

  it('is the client the document client sends through: same settings, same middleware', () => {
    expect(documentClient.config).toBe(dynamo.config);
    expect(documentClient.middlewareStack).toBe(dynamo.middlewareStack);
    expect(documentClient.middlewareStack.identify()).toContain('unavailableAsDomainError - initialize');
  });
});

/** A request the document client sent, as DynamoDB reads it. */
interface Sent {
  readonly operation: string;
  readonly body: Record<string, unknown>;
}

/** What the stand-in for DynamoDB answers: its status and its JSON body. */
interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

const answered = (body: Record<string, unknown> = {}): Answer => ({ status: 200, body });
/** An error as DynamoDB answers it; the SDK raises it by its type's name. */
const refused = (type: string, fields: Record<string, unknown> = {}): Answer => ({
  status: 400,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: type, ...fields },
});
const cancelled = (...codes: string[]): Answer =>
  refused('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

/** The requests sent so far, and how the stand-in answers the next. */
let sent: Sent[] = [];
let answer: (request: Sent) => Answer = () => answered();

// DynamoDB, in the process: every request is built, signed and sent as usual, and answered here. Set
// before the first call, as the client resolves its handler on first use.
(dynamo.config as unknown as { requestHandler: unknown }).requestHandler = {
  handle: async (request: { headers: Record<string, string>; body: Uint8Array }) => {
    const received = {
      operation: String(request.headers['x-amz-target']).split('.')[1] ?? '',
      // A view of the bytes: Buffer.from(body) would take the SDK's body adapter by its valueOf, which it warns about.
      body: JSON.parse(
        Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength).toString('utf8'),
      ) as Record<string, unknown>,
    };
    sent.push(received);
    const { status, body } = answer(received);
    const payload = Buffer.from(JSON.stringify(body));
    return {
      response: {
        statusCode: status,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(payload.length) },
        body: Readable.from([payload]),
      },
    };
  },
  updateHttpClientConfig: () => undefined,
  httpHandlerConfigs: () => ({}),
  destroy: () => undefined,
};

beforeEach(() => {
  sent = [];
  answer = () => answered();
});

describe('items as records', () => {
  it('writes the fields that are set, leaves the undefined ones out, and names the table', async () => {
    await writeItem({
      Put: { Item: { PK: 'TOKEN#a', ttl: undefined, expiresAt: null, version: 2, slots: { a: 0, b: undefined } } },
    });
    expect(sent).toEqual([
      {
        operation: 'PutItem',
        body: {
          TableName: 'unit',
          Item: {
            PK: { S: 'TOKEN#a' },
            expiresAt: { NULL: true },
            version: { N: '2' },
            slots: { M: { a: { N: '0' } } },
          },
        },
      },
    ]);
  });

  it('refuses what it could not read back as written: a class instance, an unsafe number', async () => {
    await expect(writeItem({ Put: { Item: { at: new Date(0) } } })).rejects.toThrow(/Unsupported type/);
    await expect(writeItem({ Put: { Item: { n: Number.MAX_SAFE_INTEGER + 2 } } })).rejects.toThrow(/MAX_SAFE_INTEGER/);
    await expect(writeItem({ Put: { Item: { n: Number.NaN } } })).rejects.toThrow(/not allowed/);
    expect(sent).toEqual([]);
  });

  it('reads an item back as the record it was written from', async () => {
    answer = () =>
      answered({ Item: { PK: { S: 'TOKEN#a' }, expiresAt: { NULL: true }, slots: { M: { a: { N: '0' } } } } });
    await expect(getItem({ PK: 'TOKEN#a', SK: 'TOKEN' }, true)).resolves.toEqual({
      PK: 'TOKEN#a',
      expiresAt: null,
      slots: { a: 0 },
    });
    expect(sent).toEqual([
      {
        operation: 'GetItem',
        body: { TableName: 'unit', Key: { PK: { S: 'TOKEN#a' }, SK: { S: 'TOKEN' } }, ConsistentRead: true },
      },
    ]);
  });
});

describe('conditional writes', () => {
  afterEach(() => jest.useRealTimers());

  const writes = [
    { ConditionCheck: { Key: { PK: 'a', SK: 'a' }, ConditionExpression: 'attribute_exists(PK)' } },
    { Delete: { Key: { PK: 'b', SK: 'b' } } },
  ];
  const update = {
    Update: { Key: { PK: 'a', SK: 'a' }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 1 } },
  };

  it('answers whether a single write was made, its failed condition being an answer', async () => {
    await expect(writeIfCondition(update)).resolves.toBe(true);
    answer = () => refused('ConditionalCheckFailedException');
    await expect(writeIfCondition(update)).resolves.toBe(false);
    expect(sent.map((request) => request.body.TableName)).toEqual(['unit', 'unit']);
  });

  it('throws any other refusal of a single write', async () => {
    answer = () => refused('ValidationException');
    await expect(writeIfCondition(update)).rejects.toMatchObject({ name: 'ValidationException' });
    answer = () => refused('ConditionalCheckFailedException');
    await expect(writeItem(update)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
  });

  it('names the table in every write of a transaction', async () => {
    await expect(transactWrite(writes)).resolves.toEqual({ ok: true });
    expect(sent).toEqual([
      {
        operation: 'TransactWriteItems',
        body: {
          ClientRequestToken: expect.any(String),
          TransactItems: [
            {
              ConditionCheck: {
                TableName: 'unit',
                Key: { PK: { S: 'a' }, SK: { S: 'a' } },
                ConditionExpression: 'attribute_exists(PK)',
              },
            },
            { Delete: { TableName: 'unit', Key: { PK: { S: 'b' }, SK: { S: 'b' } } } },
          ],
        },
      },
    ]);
  });

  it('answers every failed condition when one it was asked about failed', async () => {
    answer = () => cancelled('ConditionalCheckFailed', 'ConditionalCheckFailed');
    await expect(transactWrite(writes, [1])).resolves.toEqual({
      ok: false,
      conditionFailed: [0, 1],
      cause: expect.objectContaining({ name: 'TransactionCanceledException' }),
    });
  });

  it('throws a cancellation by a condition it was not asked about', async () => {
    answer = () => cancelled('None', 'ConditionalCheckFailed');
    await expect(transactWrite(writes, [0])).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    await expect(transactWrite(writes)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });

  it('runs a transaction cancelled by a conflict again, and gives up with a 503 after five attempts', async () => {
    jest.useFakeTimers();
    let conflicts = 2;
    answer = () => {
      conflicts -= 1;
      return conflicts >= 0 ? cancelled('TransactionConflict', 'None') : answered();
    };
    const written = transactWrite(writes);
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(written).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(3);

    sent = [];
    answer = () => cancelled('TransactionConflict', 'None');
    const refusal = expect(transactWrite(writes)).rejects.toMatchObject({ name: 'ServiceUnavailableError' });
    await jest.advanceTimersByTimeAsync(1_000);
    await refusal;
    expect(sent).toHaveLength(5);
  });
});
