import { spawnSync } from 'node:child_process';
import type { Bundle } from './build';

const LOAD_SCRIPT =
  'const t=process.hrtime.bigint();require(process.argv[1]);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))';

/** Environment a bundle reads at load; no value reaches AWS (nothing is called). */
export const BUNDLE_ENV = {
  TABLE_NAME: 'bench',
  SESSION_ISSUER: 'https://issuer.example.com',
  SESSION_AUDIENCE: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  LOG_LEVEL: 'info',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * Milliseconds to `require()` each bundle in a fresh Node process, `rounds` times. Rounds visit the
 * bundles in turn, so a noisy moment of the machine falls on all of them alike.
 */
export const measureColdLoad = (bundles: readonly Bundle[], rounds: number, nodeArgs: string[] = []) => {
  const samples = new Map<string, number[]>(bundles.map((bundle) => [bundle.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const bundle of bundles) {
      const child = spawnSync(process.execPath, [...nodeArgs, '-e', LOAD_SCRIPT, bundle.file], {
        env: { PATH: process.env.PATH, ...BUNDLE_ENV },
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(`${bundle.name} failed to load: ${child.stderr}`);
      samples.get(bundle.name)?.push(Number(child.stdout));
    }
  }
  return samples;
};

/** The REQUEST authorizer event of `GET /api/v1/tokens` with an API token, from the address it is bound to. */
export const benchAuthorizerEvent = (rawToken: string, sourceIp = '203.0.113.7') =>
  ({
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:000000000000:api/prod/GET/api/v1/tokens',
    resource: '/api/v1/tokens',
    path: '/api/v1/tokens',
    httpMethod: 'GET',
    headers: { Authorization: `Bearer ${rawToken}` },
    multiValueHeaders: { Authorization: [`Bearer ${rawToken}`] },
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'bench', identity: { sourceIp } },
  }) as never;
