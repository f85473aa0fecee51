import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:dgram';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The current invocation's trace, when X-Ray samples it: Lambda sets `_X_AMZN_TRACE_ID` per invocation. */
const sampledTrace = (): { root: string; parent: string } | undefined => {
  const header = process.env._X_AMZN_TRACE_ID;
  // Every call asks; most are not sampled, and answer here.
  if (!header?.includes('Sampled=1')) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.split(';')) {
    const [name = '', value = ''] = part.split('=');
    fields.set(name.trim(), value.trim());
  }
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  return fields.get('Sampled') === '1' && root && parent ? { root, parent } : undefined;
};

/** Where the X-Ray daemon listens for segments: `host:port`, or its `udp:host:port` part. */
const daemonAddress = (): { host: string; port: number } | undefined => {
  const setting = process.env.AWS_XRAY_DAEMON_ADDRESS ?? '';
  const udp =
    setting
      .split(/\s+/)
      .find((part) => part.startsWith('udp:'))
      ?.slice(4) ?? setting;
  const separator = udp.lastIndexOf(':');
  const port = Number(udp.slice(separator + 1));
  return separator > 0 && Number.isInteger(port) && port > 0 ? { host: udp.slice(0, separator), port } : undefined;
};

const DAEMON_HEADER = '{"format":"json","version":1}\n';
const THROTTLING = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded']);

let socket: Socket | undefined;

/** Tracing is best effort: a datagram that cannot be sent is dropped, never a request. */
const ignore = (): void => undefined;

const send = (document: Record<string, unknown>, daemon: { host: string; port: number }): void => {
  // Loaded on the first sampled call only: the socket module is no part of a cold start.
  socket ??= (require('node:dgram') as typeof import('node:dgram')).createSocket('udp4').on('error', ignore).unref();
  socket.send(`${DAEMON_HEADER}${JSON.stringify(document)}`, daemon.port, daemon.host, ignore);
};

/** What a call's result or error says of it, as the SDK reports it. */
interface CallMetadata {
  readonly $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
  readonly $fault?: 'client' | 'server';
  readonly name?: string;
}

/** The table a call names: its `TableName`, or the one table of a BatchGetItem's `RequestItems`. */
interface TracedInput {
  readonly TableName?: string;
  readonly RequestItems?: Record<string, unknown>;
}

const tableOf = (input: TracedInput): string | undefined => {
  const tables = Object.keys(input.RequestItems ?? {});
  return input.TableName ?? (tables.length === 1 ? tables[0] : undefined);
};

/**
 * Records every DynamoDB call of a sampled invocation as an X-Ray subsegment of the function's
 * segment: operation, table, status, request id and retries, never a key, item or expression value.
 * Written here rather than with Powertools Tracer or the X-Ray SDK, whose load would make up a large
 * share of every function's cold start, measured by `npm run bench` (cold load). The subsegment goes
 * over UDP to the daemon Lambda runs beside the function, as the X-Ray SDK's would, and costs nothing
 * when X-Ray does not sample.
 */
export const traceCalls = (client: DynamoDBClient): void => {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const trace = sampledTrace();
      const daemon = trace && daemonAddress();
      if (!trace || !daemon) return next(args);
      const startTime = Date.now() / 1000;
      const record = (outcome: CallMetadata, failed: boolean) => {
        const status = outcome.$metadata?.httpStatusCode;
        send(
          {
            name: 'DynamoDB',
            namespace: 'aws',
            type: 'subsegment',
            id: randomBytes(8).toString('hex'),
            trace_id: trace.root,
            parent_id: trace.parent,
            start_time: startTime,
            end_time: Date.now() / 1000,
            aws: {
              operation: context.commandName?.replace(/Command$/, ''),
              region: process.env.AWS_REGION,
              table_name: tableOf(args.input as TracedInput),
              request_id: outcome.$metadata?.requestId,
              retries: Math.max(0, (outcome.$metadata?.attempts ?? 1) - 1),
            },
            ...(status !== undefined && { http: { response: { status } } }),
            ...(failed && {
              throttle: THROTTLING.has(outcome.name ?? ''),
              error: outcome.$fault === 'client',
              fault: outcome.$fault !== 'client',
            }),
          },
          daemon,
        );
      };
      try {
        const output = await next(args);
        record(output.output as CallMetadata, false);
        return output;
      } catch (error) {
        record((error ?? {}) as CallMetadata, true);
        throw error;
      }
    },
    { step: 'initialize', name: 'xraySubsegment' },
  );
};
