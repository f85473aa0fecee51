/**
 * Warm end to end against DynamoDB Local, run as its own process
 * (`tsx bench/end-to-end.ts <endpoint> <table> <out.json>`): the authorizer with a real API token
 * against a raw consistent GetItem with the same client settings, interleaved call by call, in
 * rounds after a warm-up long enough for DynamoDB Local's JIT to settle, counting the TCP
 * connections each opens.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { Context } from 'aws-lambda';
import { BUNDLE_ENV, benchAuthorizerEvent } from './fixtures';

const WARMUP = 10_000;
const ROUNDS = 5;
const CALLS_PER_ROUND = 1000;

const main = async () => {
  const [endpoint = '', tableName = '', out = 'end-to-end.json'] = process.argv.slice(2);
  Object.assign(process.env, BUNDLE_ENV, { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint });
  // Every TCP connection the process opens, counted where Node creates it; calls run one at a time,
  // so a connection opened while the service's client works (the token's seeding included) is the
  // authorizer's.
  const connections = { authorizer: 0, raw: 0 };
  let calling: keyof typeof connections = 'authorizer';
  subscribe('net.client.socket', () => {
    connections[calling] += 1;
  });

  const { DynamoDBClient, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { mintToken } = await import('@lambdas/domain/token-format');
  const { createTokenWithinLimit } = await import('@lambdas/data/token-slot-repository');
  const { handler: authorizer } = await import('@lambdas/authorizer/handler');
  const { clientSettings } = await import('@lambdas/data/client');
  const { auditEvent, systemOrigin } = await import('@lambdas/domain/audit');

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
  const raw = new DynamoDBClient({ ...clientSettings, endpoint });
  const get = new GetItemCommand({
    TableName: tableName,
    Key: { PK: { S: `TOKEN#${minted.tokenId}` }, SK: { S: 'TOKEN' } },
    ConsistentRead: true,
  });

  /** `calls` pairs of one authorizer call and one raw GetItem, timed apart. */
  const run = async (calls: number) => {
    const round = { authorizerMs: [] as number[], rawMs: [] as number[] };
    for (let i = 0; i < calls; i += 1) {
      calling = 'authorizer';
      let started = process.hrtime.bigint();
      const decision = await authorizer(event, lambdaContext);
      round.authorizerMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (decision.policyDocument.Statement[0]?.Effect !== 'Allow') throw new Error('the bench token was not allowed');
      calling = 'raw';
      started = process.hrtime.bigint();
      await raw.send(get);
      round.rawMs.push(Number(process.hrtime.bigint() - started) / 1e6);
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
      authorizerConnections: connections.authorizer,
      rawConnections: connections.raw,
      calls: WARMUP + ROUNDS * CALLS_PER_ROUND,
    }),
  );
  raw.destroy();
  process.exit(0);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
