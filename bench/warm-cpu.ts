/**
 * Warm CPU per invocation, run as its own process: bench/run.ts bundles this file with the stack's
 * esbuild settings and runs the bundle, so the handlers, the SDK and the floor's client run compiled
 * as deployed (`tsx bench/warm-cpu.ts <out.json>` runs it from source). It measures the
 * authorizer and every handler with the SDK on an in-memory transport (no network). The floor of
 * the authorizer is one bare `GetCommand` of the same key through a plain DocumentClient; the floor
 * of a handler is its own DynamoDB calls sent bare (the same commands with the same input, replayed
 * through a plain client on the same transport). A handler's event is made before its time starts,
 * as the Lambda runtime hands it over. Both sides first run until V8 has compiled them fully, as in a
 * container that has served a while. Writes its samples to the file named.
 */
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { BUNDLE_ENV, benchAuthorizerEvent } from './fixtures';

Object.assign(process.env, BUNDLE_ENV);

type Json = Record<string, unknown>;
const BLOCKS = 8;
const ITERATIONS = 400;
const WARMUP = 50;
/**
 * Invocations of each side before its first block. With none, create-token's first blocks ran
 * slower than the rest while V8 still compiled its longer path, and the median mixed both states
 * (docs/performance.md, "Warm CPU is measured warm").
 */
const SETTLE = 2000;

const main = async () => {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  const { tokenKey } = await import('@lambdas/data/keys');
  const { mintToken } = await import('@lambdas/domain/token-format');
  const { routes, SAMPLE_WORLD } = await import('@contract/routes');
  const { clientSettings, dynamo } = await import('@lambdas/data/client');

  const now = new Date().toISOString();
  const far = '2999-01-01T00:00:00.000Z';
  const minted = mintToken();
  const email = 'bench@example.com';
  const projectId = 'prj_AAAAAAAAAAAAAAAA';
  const token = {
    PK: `TOKEN#${minted.tokenId}`,
    SK: 'TOKEN',
    entity: 'Token',
    tokenId: minted.tokenId,
    userId: 'user-1',
    name: 'bench',
    scopes: ['admin'],
    secretHash: minted.hash,
    boundIp: '203.0.113.7',
    displayPrefix: minted.displayPrefix,
    createdAt: now,
    expiresAt: far,
    lastUsedAt: far,
    GSI1PK: 'USER#user-1#TOKENS',
    GSI1SK: `${now}#${minted.tokenId}`,
  };
  const member = (userId: string, role: string) => ({
    PK: `PROJECT#${projectId}`,
    SK: `MEMBER#${userId}`,
    entity: 'Member',
    projectId,
    projectName: 'bench',
    projectCreatedAt: now,
    userId,
    role,
    addedAt: now,
  });
  const userProfile = (userId: string, profileEmail: string) => ({
    PK: `USER#${userId}`,
    SK: 'PROFILE',
    entity: 'Profile',
    userId,
    email: profileEmail,
    lastSeenAt: now,
  });
  const slots = {
    PK: 'USER#user-1',
    SK: 'TOKEN_SLOTS',
    entity: 'TokenSlots',
    version: 3,
    slots: { [mintToken().tokenId]: 0, [mintToken().tokenId]: Date.parse(far) },
  };
  const claim = {
    PK: 'EMAIL#new@example.com',
    SK: 'USER',
    entity: 'EmailClaim',
    email: 'new@example.com',
    userId: 'user-2',
  };

  /** Canned DynamoDB answers, encoded once: enough for every route's success path. */
  const encode = (value: Json) => Buffer.from(JSON.stringify(value));
  const itemsOf = (items: (typeof token | ReturnType<typeof member>)[]) =>
    encode({ Items: items.map((item) => marshall(item)), Count: items.length });
  const answers = {
    none: encode({}),
    slots: encode({ Item: marshall(slots) }),
    token: encode({ Item: marshall(token) }),
    claim: encode({ Item: marshall(claim) }),
    owner: encode({ Item: marshall(member('user-1', 'owner')) }),
    tokens: itemsOf(Array.from({ length: 5 }, () => token)),
    members: itemsOf([member('user-1', 'owner'), member('user-2', 'member'), member('user-3', 'admin')]),
    profiles: encode({
      Responses: {
        [BUNDLE_ENV.TABLE_NAME]: [
          userProfile('user-1', email),
          userProfile('user-2', 'a@example.com'),
          userProfile('user-3', 'b@example.com'),
        ].map((item) => marshall(item)),
      },
    }),
  };
  /**
   * The slot item create-token reads: a user who holds two tokens already, as in every create but a
   * user's first (measured for reference with none).
   */
  let slotAnswer = answers.slots;
  /**
   * The answer to a request, by its operation and what its body names. Bodies are searched, never
   * parsed: a write's body holds fresh ids, and parsing them would cost a handler more than its
   * floor, which replays the same ids every time.
   */
  const answer = (operation: string, body: { includes: (text: string) => boolean }): Buffer => {
    if (operation === 'GetItem') {
      if (body.includes('TOKEN_SLOTS')) return slotAnswer;
      if (body.includes('TOKEN#')) return answers.token;
      if (body.includes('EMAIL#')) return answers.claim;
      if (body.includes('MEMBER#')) return answers.owner;
      return answers.none;
    }
    if (operation === 'Query') return body.includes('#TOKENS') ? answers.tokens : answers.members;
    if (operation === 'BatchGetItem') return answers.profiles;
    return answers.none;
  };

  let calls = 0;
  const transport = {
    handle: async (request: { headers: Record<string, string>; body: Uint8Array | string }) => {
      calls += 1;
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      // A view of the bytes: Buffer.from(body) would take the SDK's body adapter by its valueOf, which it warns about.
      const body =
        typeof request.body === 'string'
          ? request.body
          : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
      const payload = answer(operation, body);
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(payload.length) },
          body: Readable.from([payload]),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  // Swapped before the first send: the client resolves its handler on first use.
  (dynamo.config as unknown as { requestHandler: unknown }).requestHandler = transport;

  /**
   * A handler's invocation: `event` makes a fresh event, untimed (the Lambda runtime hands it over
   * before the handler's time starts, and a floor gets none); `run` is the timed call.
   */
  type Invocation = { event: () => unknown; run: (event: unknown) => Promise<unknown> };
  const noEvent = () => undefined;

  const time = async ({ event, run }: Invocation) => {
    for (let i = 0; i < WARMUP; i += 1) await run(event());
    calls = 0;
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) {
      const input = event();
      const started = process.hrtime.bigint();
      await run(input);
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return { samples, callsPerInvocation: calls / ITERATIONS };
  };

  type Measured = { samples: number[]; callsPerInvocation: number; floor: number[] };
  const results: Record<string, Measured> = {};
  /** Measures against another floor, shown for reference. */
  const references: Record<string, Measured> = {};

  // The service's settings but one: a DocumentClient refuses to cache its middleware.
  const floorClient = DynamoDBDocumentClient.from(
    new DynamoDBClient({ ...clientSettings, cacheMiddleware: false, requestHandler: transport as never }),
  );
  type Sent = { constructor: new (input: unknown) => never; input: unknown };
  const send = dynamo.send.bind(dynamo) as (command: unknown) => Promise<unknown>;
  /** Runs one invocation and records the commands it sends, to replay them bare as its floor. */
  const capture = async (invoke: Invocation): Promise<Sent[]> => {
    const sent: Sent[] = [];
    (dynamo as unknown as { send: (command: Sent) => Promise<unknown> }).send = (command) => {
      sent.push({ constructor: command.constructor as Sent['constructor'], input: structuredClone(command.input) });
      return send(command);
    };
    try {
      await invoke.run(invoke.event());
    } finally {
      (dynamo as unknown as { send: typeof send }).send = send;
    }
    return sent;
  };
  /** Its own DynamoDB calls, replayed bare: the floor of a handler. */
  const replayOf = async (invoke: Invocation): Promise<Invocation> => {
    const sent = await capture(invoke);
    return {
      event: noEvent,
      run: async () => {
        for (const command of sent) await floorClient.send(new command.constructor(structuredClone(command.input)));
      },
    };
  };
  /** Alternates blocks of floor and measured runs, so drift of the machine or the JIT falls on both. */
  const measure = async (invoke: Invocation, bare: Invocation): Promise<Measured> => {
    const result: Measured = { samples: [], floor: [], callsPerInvocation: 0 };
    for (let i = 0; i < SETTLE; i += 1) {
      await bare.run(bare.event());
      await invoke.run(invoke.event());
    }
    for (let block = 0; block < BLOCKS; block += 1) {
      result.floor.push(...(await time(bare)).samples);
      const measured = await time(invoke);
      result.samples.push(...measured.samples);
      result.callsPerInvocation = measured.callsPerInvocation;
    }
    return result;
  };

  const { handler: authorizer } = await import('@lambdas/authorizer/handler');
  const context = { getRemainingTimeInMillis: () => 10_000, awsRequestId: 'bench' };
  const bareGet = new GetCommand({
    TableName: BUNDLE_ENV.TABLE_NAME,
    Key: tokenKey(minted.tokenId),
    ConsistentRead: true,
  });
  const bareGetFloor = () => floorClient.send(new GetCommand(structuredClone(bareGet.input)));
  const authorize: Invocation = {
    event: () => benchAuthorizerEvent(minted.rawToken),
    run: (event) => authorizer(event as never, context as never),
  };
  results.authorizer = await measure(authorize, { event: noEvent, run: bareGetFloor });
  // For reference: the same floor writing one log line as long as the authorizer's decision line,
  // the one write a request cannot do without (the line carries its metrics).
  const logLine = `${JSON.stringify({ message: 'x'.repeat(420) })}\n`;
  references['authorizer against a bare GetCommand plus one log line'] = await measure(authorize, {
    event: noEvent,
    run: async () => {
      await bareGetFloor();
      process.stdout.write(logLine);
    },
  });

  // Each route is driven with its contract's sample request; the canned answers fit any sample.
  for (const route of routes) {
    // Relative, so that esbuild bundles every handler this pattern matches.
    const module = (await import(`../lambdas/routes/${route.handler}.ts`)) as {
      handler: (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
    };
    const sample = route.sample(SAMPLE_WORLD);
    const pathParameters = sample.params ?? null;
    const event = {
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      headers: { 'Content-Type': 'application/json' },
      pathParameters,
      body: sample.body === undefined ? null : JSON.stringify(sample.body),
      isBase64Encoded: false,
      requestContext: {
        identity: { sourceIp: '203.0.113.7' },
        authorizer: {
          kind: 'session',
          userId: 'user-1',
          issuedAt: now,
          scopes: 'read:secrets write:secrets admin',
          email,
        },
      },
    };
    const check = await module.handler(structuredClone(event), context);
    if (check.statusCode >= 300) throw new Error(`${route.handler} answered ${check.statusCode} in the bench`);
    const invoke: Invocation = { event: () => structuredClone(event), run: (fresh) => module.handler(fresh, context) };
    // A route that needs no data has no calls to replay: it is held to one bare read, the least floor
    // of a route that reads.
    const floor = route.dataAccess.length > 0 ? await replayOf(invoke) : { event: noEvent, run: bareGetFloor };
    results[route.handler] = await measure(invoke, floor);
    if (route.handler === 'create-token') {
      slotAnswer = answers.none;
      references["create-token of a user's first token"] = await measure(invoke, await replayOf(invoke));
      slotAnswer = answers.slots;
    }
  }
  writeFileSync(process.argv[2] ?? 'warm-cpu.json', JSON.stringify({ results, references }));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
