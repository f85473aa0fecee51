import { createSocket, type Socket } from 'node:dgram';
import type { LocalService } from '../../local/service';
import { call, createToken, sessionFor, startService, uniqueEmail } from './harness';
import { findSecrets } from './secret-scan';

/**
 * X-Ray subsegments of the DynamoDB calls: what the X-Ray daemon beside a Lambda function would
 * receive over UDP while X-Ray samples the invocation, and nothing while it does not.
 */

const ROOT = '1-6740a1b2-0123456789abcdef01234567';
const PARENT = '53995c3f42cd8ad8';

interface Subsegment {
  name: string;
  namespace: string;
  type: string;
  id: string;
  trace_id: string;
  parent_id: string;
  start_time: number;
  end_time: number;
  aws: { operation: string; region?: string; table_name?: string; request_id?: string; retries: number };
  http?: { response: { status: number } };
  error?: boolean;
  fault?: boolean;
  throttle?: boolean;
}

let daemon: Socket;
const datagrams: string[] = [];
let service: LocalService;

beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => datagrams.push(message.toString('utf8')));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
  service = await startService();
});
afterAll(async () => {
  delete process.env.AWS_XRAY_DAEMON_ADDRESS;
  delete process.env._X_AMZN_TRACE_ID;
  await service.close();
  daemon.close();
});

/** Runs `work` as one invocation with the trace header Lambda would set, and returns the subsegments it sent. */
const traced = async (sampled: boolean, work: () => Promise<unknown>): Promise<Subsegment[]> => {
  datagrams.length = 0;
  process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=${sampled ? 1 : 0}`;
  try {
    await work();
  } finally {
    delete process.env._X_AMZN_TRACE_ID;
  }
  // UDP on loopback arrives at once, but after the event loop turns.
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const datagram of datagrams) expect(datagram.startsWith('{"format":"json","version":1}\n')).toBe(true);
  return datagrams.map((datagram) => JSON.parse(datagram.slice(datagram.indexOf('\n') + 1)) as Subsegment);
};

describe('X-Ray subsegments of DynamoDB calls', () => {
  it('records each call of a sampled invocation under the function’s segment, with no key, item or secret', async () => {
    const session = await sessionFor(service, uniqueEmail('traced'));
    let rawToken = '';
    const subsegments = await traced(true, async () => {
      rawToken = (await createToken(service, session)).rawToken;
      const listed = await call(service, 'GET', '/api/v1/tokens', { token: rawToken });
      expect(listed.status).toBe(200);
    });

    const operations = subsegments.map((subsegment) => subsegment.aws.operation);
    expect(operations).toEqual(expect.arrayContaining(['GetItem', 'TransactWriteItems', 'Query']));
    for (const subsegment of subsegments) {
      expect(subsegment).toMatchObject({
        name: 'DynamoDB',
        namespace: 'aws',
        type: 'subsegment',
        trace_id: ROOT,
        parent_id: PARENT,
        http: { response: { status: 200 } },
      });
      expect(subsegment.id).toMatch(/^[0-9a-f]{16}$/);
      expect(subsegment.end_time).toBeGreaterThanOrEqual(subsegment.start_time);
      expect(subsegment.aws.retries).toBe(0);
      expect(subsegment).not.toHaveProperty('error');
      if (subsegment.aws.operation !== 'TransactWriteItems') {
        expect(subsegment.aws.table_name).toBe(process.env.TEST_TABLE_NAME);
      }
    }
    const sent = datagrams.join('\n');
    expect(findSecrets(sent)).toEqual([]);
    expect(sent).not.toContain(rawToken.slice(0, 21));
    expect(sent).not.toMatch(/"(Key|Item|ExpressionAttributeValues)"/);
  });

  it('marks a call DynamoDB refused as an error', async () => {
    const session = await sessionFor(service, uniqueEmail('refused'));
    await call(service, 'GET', '/api/v1/tokens', { token: session });
    const subsegments = await traced(true, async () => {
      const reply = await call(service, 'DELETE', '/api/v1/tokens/AAAAAAAAAAAA', { token: session });
      expect(reply.status).toBe(404);
    });
    expect(subsegments).toEqual([
      // The authorizer reads the session's profile and address claim.
      expect.objectContaining({
        aws: expect.objectContaining({ operation: 'BatchGetItem' }),
        http: { response: { status: 200 } },
      }),
      expect.objectContaining({
        aws: expect.objectContaining({ operation: 'TransactWriteItems' }),
        http: { response: { status: 400 } },
        error: true,
        fault: false,
        throttle: false,
      }),
    ]);
  });

  it('answers as usual when the daemon cannot be reached', async () => {
    const session = await sessionFor(service, uniqueEmail('undelivered'));
    const reachable = process.env.AWS_XRAY_DAEMON_ADDRESS;
    process.env.AWS_XRAY_DAEMON_ADDRESS = 'no-such-daemon.invalid:2000';
    try {
      const subsegments = await traced(true, () => createToken(service, session));
      expect(subsegments).toEqual([]);
    } finally {
      process.env.AWS_XRAY_DAEMON_ADDRESS = reachable;
    }
  });

  it('sends nothing for an invocation X-Ray does not sample', async () => {
    const session = await sessionFor(service, uniqueEmail('unsampled'));
    const subsegments = await traced(false, () => createToken(service, session));
    expect(subsegments).toEqual([]);
  });
});
