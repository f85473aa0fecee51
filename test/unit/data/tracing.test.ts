import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * A socket error nobody handles ends a Node process, and so a Lambda invocation: a traced call whose
 * daemon cannot be reached must end as if tracing were off. Run in a process of its own, where such
 * an error would show as the exit code.
 */
const SCRIPT = `
const { Readable } = require('node:stream');
const { DynamoDBClient, GetItemCommand } = require('@aws-sdk/client-dynamodb');
const { traceCalls } = require('./lambdas/data/tracing');
const client = new DynamoDBClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  requestHandler: {
    handle: async () => ({ response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from('{}')]) } }),
  },
});
traceCalls(client);
process.env.AWS_XRAY_DAEMON_ADDRESS = 'no-such-daemon.invalid:2000';
process.env._X_AMZN_TRACE_ID = 'Root=1-6740a1b2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';
client
  .send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } }))
  .then(() => setTimeout(() => process.stdout.write('answered'), 500));
`;

describe('tracing', () => {
  it('answers a traced call as usual when the daemon cannot be reached', () => {
    const child = spawnSync(process.execPath, [require.resolve('tsx/cli'), '-e', SCRIPT], {
      cwd: path.resolve(__dirname, '../../..'),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('answered');
  });
});
