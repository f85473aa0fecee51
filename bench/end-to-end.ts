/**
 * Warm end to end against DynamoDB Local, run as its own process: bench/run.ts bundles it with the
 * stack's esbuild settings (`tsx bench/end-to-end.ts <endpoint> <table> <out.json> <floor bundle>` runs
 * it from source). The authorizer with a real API token, against its floor (its floor bundle replaying
 * its I/O: the same read, log line and metric through the same libraries, `bench/replay.ts`) and a
 * raw consistent GetItem with the service's client settings, interleaved call by call (each call
 * starting in turn), in rounds after a warm-up long enough for DynamoDB Local's JIT to settle,
 * counting the TCP connections each opens.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { Context } from 'aws-lambda';
import { BUNDLE_ENV, benchAuthorizerEvent } from './fixtures';

const WARMUP = 10_000;
const ROUNDS = 5;
const CALLS_PER_ROUND = 1000;

/** The three kinds of call, each timed alone. */
const SIDES = ['authorizer', 'floor', 'raw'] as const;
type Side = (typeof SIDES)[number];

const main = async () => {
  const [endpoint = '', tableName = '', out = 'end-to-end.json', floorFile = ''] = process.argv.slice(2);
  // The floor's client is the SDK's default but for the endpoint, which it reads from the environment.
  Object.assign(process.env, BUNDLE_ENV, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  });
  // Every TCP connection the process opens, counted where Node creates it; calls run one at a time,
  // so a connection opened while the service's client works (the token's seeding included) is the
  // authorizer's.
  const connections: Record<Side, number> = { authorizer: 0, floor: 0, raw: 0 };
  let calling: Side = 'authorizer';
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
  const floor = loadFloor(floorFile);
  checkReplayable('authorizer', floor, io);
  calling = 'raw';
  const raw = new DynamoDBClient({ ...clientSettings, endpoint });
  const get = new GetItemCommand({
    TableName: tableName,
    Key: { PK: { S: `TOKEN#${minted.tokenId}` }, SK: { S: 'TOKEN' } },
    ConsistentRead: true,
  });
  const calls: Record<Side, () => Promise<unknown>> = {
    authorizer: authorize,
    floor: () => floor.handler(structuredClone(io), lambdaContext),
    raw: () => raw.send(get),
  };

  /** `calls` triples of one call of each side, timed apart; each triple starts with the next side. */
  const run = async (count: number) => {
    const round: Record<Side, number[]> = { authorizer: [], floor: [], raw: [] };
    for (let i = 0; i < count; i += 1) {
      for (const side of [...SIDES.slice(i % 3), ...SIDES.slice(0, i % 3)]) {
        calling = side;
        const started = process.hrtime.bigint();
        await calls[side]();
        round[side].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    return round;
  };
  await run(WARMUP);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i += 1) rounds.push(await run(CALLS_PER_ROUND));
  writeFileSync(
    out,
    JSON.stringify({
      rounds,
      connections,
      calls: WARMUP + 2 + ROUNDS * CALLS_PER_ROUND,
    }),
  );
  raw.destroy();
  process.exit(0);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
