/**
 * Warm end to end against DynamoDB Local, run as its own process
 * (`tsx bench/end-to-end.ts <endpoint> <table> <out.json>`): the authorizer with a real API token
 * against a raw consistent GetItem with the same client settings, interleaved call by call. Each
 * client reaches DynamoDB Local through its own counting TCP proxy, so the connections each opens
 * are counted.
 */
import { writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { BUNDLE_ENV, benchAuthorizerEvent } from './fixtures';

const CALLS = 1000;
const WARMUP = 1000;

const countingProxy = async (target: URL) => {
  let connections = 0;
  const server = createServer((client) => {
    connections += 1;
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, connections: () => connections, close: () => server.close() };
};

const main = async () => {
  const [endpoint = '', tableName = '', out = 'end-to-end.json'] = process.argv.slice(2);
  const authorizerProxy = await countingProxy(new URL(endpoint));
  const rawProxy = await countingProxy(new URL(endpoint));
  Object.assign(process.env, BUNDLE_ENV, { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: authorizerProxy.endpoint });

  const { DynamoDBClient, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { mintToken } = await import('@lambdas/domain/token-format');
  const { createTokenWithinLimit } = await import('@lambdas/data/token-repository');
  const { handler: authorizer } = await import('@lambdas/authorizer/handler');
  const { clientSettings } = await import('@lambdas/data/client');

  const minted = mintToken();
  const now = new Date();
  await createTokenWithinLimit(
    {
      tokenId: minted.tokenId,
      userId: 'bench-user',
      email: 'bench@example.com',
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
  );
  const event = benchAuthorizerEvent(minted.rawToken);
  const raw = new DynamoDBClient({ ...clientSettings, endpoint: rawProxy.endpoint });
  const get = new GetItemCommand({
    TableName: tableName,
    Key: { PK: { S: `TOKEN#${minted.tokenId}` }, SK: { S: 'TOKEN' } },
    ConsistentRead: true,
  });

  const authorizerMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i += 1) {
    let started = process.hrtime.bigint();
    const decision = await authorizer(event);
    const authorizerTime = Number(process.hrtime.bigint() - started) / 1e6;
    if (decision.policyDocument.Statement[0]?.Effect !== 'Allow') throw new Error('the bench token was not allowed');
    started = process.hrtime.bigint();
    await raw.send(get);
    const rawTime = Number(process.hrtime.bigint() - started) / 1e6;
    if (i >= WARMUP) {
      authorizerMs.push(authorizerTime);
      rawMs.push(rawTime);
    }
  }
  writeFileSync(
    out,
    JSON.stringify({
      authorizerMs,
      rawMs,
      authorizerConnections: authorizerProxy.connections(),
      rawConnections: rawProxy.connections(),
      calls: CALLS + WARMUP,
    }),
  );
  authorizerProxy.close();
  rawProxy.close();
  raw.destroy();
  process.exit(0);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
