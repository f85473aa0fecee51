/**
 * Warm end to end against DynamoDB Local, run as its own process: bench/run.ts bundles it with the
 * stack's esbuild settings (`tsx bench/end-to-end.ts <endpoint> <table> <out.json> <floor bundle>` runs
 * it from source). The authorizer with a real API token, against its floor (its floor bundle replaying
 * its I/O: the same read, log line and metric through the same libraries, `bench/replay.ts`) and a
 * raw consistent GetItem with the service's client settings, interleaved call by call (each call
 * starting in turn), in rounds (as many as bench/sampling.ts's rule asks) after a warm-up long enough
 * for DynamoDB Local's JIT to settle,
 * counting the TCP connections each opens. Then a warm read of one secret (get-secret) against its floor:
 * its floor bundle replaying its one BatchGetItem and its event's PutItem, and no KMS call (the data
 * key is kept five minutes: a KMS in memory answers the first read's Decrypt, and a later call fails
 * the run).
 *
 * A sixth argument names the parts to run (comma-separated; both by default): `authorizer` (the
 * authorizer, its floor and the raw GetItem), `raw` (the raw GetItem alone, whose p50 prices the cost
 * rows' I/O when the authorizer is not measured), `get-secret`.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { Context } from 'aws-lambda';
import { BUNDLE_ENV, benchAuthorizerEvent, cannedKms } from './fixtures';
import { END_TO_END, RAW_PRICE, type Rounds, SECRET_READ } from './sampling';
import { clearance, median, pairedRatios, quantile } from './stats';

/** The three kinds of call, each timed alone. */
const SIDES = ['authorizer', 'floor', 'raw'] as const;
type Side = (typeof SIDES)[number];

const main = async () => {
  const [endpoint = '', tableName = '', out = 'end-to-end.json', floorFile = '', secretFloorFile = '', partList] =
    process.argv.slice(2);
  const parts = new Set((partList ?? 'authorizer,get-secret').split(','));
  /** The kinds of call the authorizer's rounds take turns with: only the raw GetItem when it is all that is asked. */
  const sides: readonly Side[] = parts.has('authorizer') ? SIDES : ['raw'];
  // The floor's client is the SDK's default but for the endpoint, which it reads from the environment.
  Object.assign(process.env, BUNDLE_ENV, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  });
  // Every TCP connection the process opens, counted where Node creates it; calls run one at a time,
  // so a connection opened while the service's client works (the token's seeding included) is the
  // authorizer's.
  const connections: Record<Side | 'secret', number> = { authorizer: 0, floor: 0, raw: 0, secret: 0 };
  let calling: Side | 'secret' = 'authorizer';
  subscribe('net.client.socket', () => {
    connections[calling] += 1;
  });

  const { DynamoDBClient, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { mintToken } = await import('@lambdas/domain/token-format');
  const { createTokenWithinLimit } = await import('@lambdas/data/token-slot-repository');
  const { handler: authorizer } = await import('@lambdas/authorizer/handler');
  const { clientSettings } = await import('@lambdas/data/client');
  const { auditEvent, systemOrigin } = await import('@lambdas/domain/audit');
  const { captureIo, checkReplayable, loadFloor } = await import('./replay');
  const { SAMPLE_SECRET } = await import('@contract/route');
  const kms = cannedKms();
  const { kms: kmsClient } = await import('@lambdas/crypto/kms-key-wrapper');
  kmsClient.config.requestHandler = kms.transport as never;

  const minted = mintToken();
  const now = new Date();
  await createTokenWithinLimit(
    {
      tokenId: minted.tokenId,
      userId: 'bench-user',
      name: 'bench',
      scopes: ['admin'],
      secretHash: minted.hash,
      boundIp: '203.0.113.7',
      displayPrefix: minted.displayPrefix,
      createdAt: now.toISOString(),
      expiresAt: null,
      lastUsedAt: null,
    },
    now,
    now.toISOString(),
    auditEvent('token.created', systemOrigin, now, { tokenId: minted.tokenId }),
  );
  const event = benchAuthorizerEvent(minted.rawToken);
  const lambdaContext = { getRemainingTimeInMillis: () => 10_000, awsRequestId: 'bench' } as unknown as Context;
  const authorize = async () => {
    const decision = await authorizer(event, lambdaContext);
    if (decision.policyDocument.Statement[0]?.Effect !== 'Allow') throw new Error('the bench token was not allowed');
  };
  // The first call records the token's first use; the floor replays a call in steady state, as most are.
  await authorize();
  const io = await captureIo(authorize);
  calling = 'floor';
  const floor = parts.has('authorizer') ? loadFloor(floorFile) : undefined;
  if (floor) checkReplayable('authorizer', floor, io);
  calling = 'raw';
  const raw = new DynamoDBClient({ ...clientSettings, endpoint });
  const get = new GetItemCommand({
    TableName: tableName,
    Key: { PK: { S: `TOKEN#${minted.tokenId}` }, SK: { S: 'TOKEN' } },
    ConsistentRead: true,
  });
  const calls: Record<Side, () => Promise<unknown>> = {
    authorizer: authorize,
    floor: async () => floor?.handler(structuredClone(io), lambdaContext),
    raw: () => raw.send(get),
  };

  /** `calls` triples of one call of each side, timed apart; each triple starts with the next side. */
  const run = async (count: number) => {
    const round: Record<Side, number[]> = { authorizer: [], floor: [], raw: [] };
    for (let i = 0; i < count; i += 1) {
      const turn = i % sides.length;
      for (const side of [...sides.slice(turn), ...sides.slice(0, turn)]) {
        calling = side;
        const started = process.hrtime.bigint();
        await calls[side]();
        round[side].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    return round;
  };
  /**
   * Rounds until the rule of bench/sampling.ts stops: the p50 ratio's interval over every round's pairs
   * is clear of its target, and (`settled`) what else the verdict reads of the rounds is too.
   */
  const inRounds = async <R>(
    rule: Rounds,
    round: (count: number) => Promise<R>,
    ratios: (rounds: R[]) => number[],
    settled: (rounds: R[]) => boolean = () => true,
  ) => {
    await round(rule.warmup);
    const taken: R[] = [];
    while (
      taken.length < rule.minRounds ||
      (taken.length < rule.maxRounds &&
        (clearance(ratios(taken), rule.target, rule.margin) === 'open' || !settled(taken)))
    ) {
      taken.push(await round(rule.callsPerRound));
    }
    return taken;
  };
  const allOf = (taken: Record<Side, number[]>[], side: Side) => taken.flatMap((round) => round[side]);
  const overRounds = (taken: Record<Side, number[]>[], figure: (round: Record<Side, number[]>) => number) =>
    median(taken.map(figure));
  /**
   * The tail as bench/run.ts judges it (the median over the rounds of the authorizer's p99, against 3
   * times its p50 or 1.10 times the floor's p99), more than a tenth inside its target.
   */
  const tailSettled = (taken: Record<Side, number[]>[]) => {
    const p50 = overRounds(taken, (round) => median(round.authorizer));
    const p99 = (side: Side) => overRounds(taken, (round) => quantile(round[side], 0.99));
    return p99('authorizer') / p50 <= 0.9 * Math.max(3, (1.1 * p99('floor')) / p50);
  };
  const authorizerRule = parts.has('authorizer') ? END_TO_END : RAW_PRICE;
  const rounds = parts.has('authorizer')
    ? await inRounds(
        END_TO_END,
        run,
        (taken) => pairedRatios(allOf(taken, 'authorizer'), allOf(taken, 'floor')),
        tailSettled,
      )
    : await inRounds(RAW_PRICE, run, () => []);

  /** A warm read of one secret against its floor, in rounds after a warm-up: each round's two sides' milliseconds. */
  const measureSecretRead = async () => {
    // A warm read of one secret. The world is made through the routes themselves: a project (its
    // environments with it) and the sample secret, whose write stores the project's data key.
    calling = 'secret';
    type RouteHandler = (event: unknown, context: Context) => Promise<{ statusCode: number; body: string }>;
    const routeOf = async (name: string) =>
      ((await import(`../lambdas/routes/${name}.ts`)) as { handler: RouteHandler }).handler;
    const routeEvent = (method: string, params: Record<string, string> | null, body: unknown) => ({
      httpMethod: method,
      headers: { 'Content-Type': 'application/json' },
      pathParameters: params,
      queryStringParameters: null,
      body: body === undefined ? null : JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: {
        identity: { sourceIp: '203.0.113.7' },
        authorizer: {
          kind: 'session',
          userId: 'bench-user',
          issuedAt: now.toISOString(),
          scopes: 'read:secrets write:secrets admin',
          email: 'bench@example.com',
        },
      },
    });
    const expectOk = async (answer: Promise<{ statusCode: number; body: string }>, what: string) => {
      const { statusCode, body } = await answer;
      if (statusCode >= 300) throw new Error(`${what} answered ${statusCode}: ${body}`);
      return JSON.parse(body) as { data: Record<string, unknown> };
    };
    const created = await expectOk(
      (await routeOf('create-project'))(routeEvent('POST', null, { name: 'bench' }), lambdaContext),
      'create-project',
    );
    const secretParams = {
      projectId: String(created.data.projectId),
      environment: SAMPLE_SECRET.environment,
      name: SAMPLE_SECRET.name,
    };
    await expectOk(
      (await routeOf('put-secret'))(routeEvent('PUT', secretParams, { value: SAMPLE_SECRET.value }), lambdaContext),
      'put-secret',
    );
    const getSecret = await routeOf('get-secret');
    const readEvent = routeEvent('GET', secretParams, undefined);
    const read = async () => {
      const answer = await expectOk(getSecret(structuredClone(readEvent), lambdaContext), 'get-secret');
      if (answer.data.value !== SAMPLE_SECRET.value) throw new Error('get-secret answered another value');
    };
    await read();
    const kmsWarm = kms.calls.length;
    const readIo = await captureIo(read);
    const operations = readIo.calls.map(([command]) => command).join(', ');
    if (operations !== 'BatchGetCommand, PutCommand') {
      throw new Error(`a warm read of one secret sent ${operations}, not one BatchGetItem and its event's PutItem`);
    }
    const secretFloor = loadFloor(secretFloorFile);
    checkReplayable('get-secret', secretFloor, readIo);
    // The floor's event is written once per replay: each replay gives it an id of its own, made before
    // its time starts, as the function makes a fresh one.
    const captured = JSON.stringify(readIo);
    const eventId = /evt_[0-9A-Za-z]{20}/.exec(captured)?.[0];
    if (!eventId) throw new Error('the secret read wrote no event id to replay');
    let replays = 0;
    const freshFloorEvent = () => {
      replays += 1;
      const id = `evt_${String(replays).padStart(20, '0')}`;
      return JSON.parse(captured.split(eventId).join(id)) as typeof readIo;
    };
    const secretRun = async (count: number) => {
      const round: Record<'read' | 'floor', number[]> = { read: [], floor: [] };
      for (let i = 0; i < count; i += 1) {
        for (const side of i % 2 === 0 ? (['read', 'floor'] as const) : (['floor', 'read'] as const)) {
          const floorEvent = side === 'floor' ? freshFloorEvent() : undefined;
          const started = process.hrtime.bigint();
          await (floorEvent ? secretFloor.handler(floorEvent, lambdaContext) : read());
          round[side].push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
      return round;
    };
    const secretRounds = await inRounds(SECRET_READ, secretRun, (taken) =>
      pairedRatios(
        taken.flatMap((round) => round.read),
        taken.flatMap((round) => round.floor),
      ),
    );
    if (kms.calls.length !== kmsWarm) {
      throw new Error(`warm reads of one secret made ${kms.calls.length - kmsWarm} KMS call(s); the data key is kept`);
    }
    return secretRounds;
  };
  const secretRounds = parts.has('get-secret') ? await measureSecretRead() : [];

  writeFileSync(
    out,
    JSON.stringify({
      rounds,
      connections,
      calls: authorizerRule.warmup + 2 + rounds.length * authorizerRule.callsPerRound,
      secretRounds,
    }),
  );
  raw.destroy();
  process.exit(0);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
