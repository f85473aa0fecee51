/**
 * A function's I/O, recorded from one invocation and replayed through its floor bundle
 * (`bench/library-floor.ts`): its DynamoDB calls, log lines and metric lines, as a function of those
 * libraries alone would make them. The warm-CPU and end-to-end measures hold a function to that
 * replay. Imported by bench scripts that bundle the service's code, so the classes patched here are
 * the ones the function uses.
 */
import { createRequire } from 'node:module';
import { Metrics } from '@aws-lambda-powertools/metrics';
import * as lowLevel from '@aws-sdk/client-dynamodb';
import * as documents from '@aws-sdk/lib-dynamodb';
import * as dataClient from '@lambdas/data/client';

type Json = Record<string, unknown>;

/**
 * What one invocation does through its libraries, as its floor replays it: its DynamoDB calls (command
 * name and input), its log lines (level, message and the attributes it logged) and its metric lines
 * (dimensions and values).
 */
export type FloorEvent = {
  calls: [string, unknown][];
  logs: [string, string, Json][];
  /** `single`: written through a `singleMetric()` instance of its own, as the function did. */
  metrics: { single: boolean; dimensions: [string, string][]; values: [string, string, number][] }[];
};

/** What a harness needs of an SDK client: its config and its `send`. */
export type SdkClient = {
  config: { requestHandler: unknown };
  send: (command: { constructor: { name: string }; input: unknown }) => Promise<unknown>;
};
const isSdkClient = (value: unknown): value is SdkClient =>
  typeof value === 'object' && value !== null && 'send' in value && 'config' in value && 'middlewareStack' in value;

/** The service's DynamoDB clients: whatever its data module exports that sends commands. */
export const serviceClients = (Object.values(dataClient) as unknown[]).filter(isSdkClient);
if (serviceClients.length === 0) throw new Error('@lambdas/data/client exports no SDK client to measure');

/** What Powertools' Logger writes on every line itself, with the Lambda context it is given. */
const LOGGER_KEYS = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
]);
type Emf = { _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } };

/**
 * Records one line written to stdout: a metric line in CloudWatch's embedded metric format, else a log
 * line. `single` tells whether a `singleMetric()` instance wrote it.
 */
const recordLine = (io: FloorEvent, line: string, single: () => boolean): void => {
  let json: Json;
  try {
    json = JSON.parse(line) as Json;
  } catch {
    io.logs.push(['info', line.trim(), {}]);
    return;
  }
  const emf = (json as Partial<Emf>)._aws?.CloudWatchMetrics?.[0];
  if (emf) {
    io.metrics.push({
      single: single(),
      // The service dimension is every Metrics instance's default, the floor's too.
      dimensions: (emf.Dimensions[0] ?? [])
        .filter((name) => name !== 'service')
        .map((name) => [name, String(json[name])]),
      values: emf.Metrics.map(({ Name, Unit }) => [Name, Unit, Number(json[Name])]),
    });
    return;
  }
  const attributes = Object.fromEntries(Object.entries(json).filter(([key]) => !LOGGER_KEYS.has(key)));
  io.logs.push([String(json.level ?? 'info').toLowerCase(), String(json.message ?? ''), attributes]);
};

/** The name each command class is exported under, to replay a call with the floor's own class. */
const commandNames = new Map<unknown, string>();
for (const [name, value] of [...Object.entries(lowLevel), ...Object.entries(documents)]) {
  if (name.endsWith('Command')) commandNames.set(value, name);
}

/** Runs one invocation and records its I/O, to replay it through the floor. */
export const captureIo = async (invoke: () => Promise<unknown>): Promise<FloorEvent> => {
  const io: FloorEvent = { calls: [], logs: [], metrics: [] };
  const sends = serviceClients.map((client) => client.send);
  const write = process.stdout.write;
  serviceClients.forEach((client, index) => {
    const send = sends[index] as SdkClient['send'];
    client.send = (command) => {
      const name = commandNames.get(command.constructor);
      if (!name) throw new Error(`no exported command class sends ${command.constructor.name}`);
      io.calls.push([name, structuredClone(command.input)]);
      return send.call(client, command);
    };
  });
  // A metric of a singleMetric() instance is written when it is added.
  let singles = 0;
  const singleMetric = Metrics.prototype.singleMetric;
  Metrics.prototype.singleMetric = function (this: Metrics) {
    singles += 1;
    return singleMetric.call(this);
  };
  const single = () => {
    if (singles === 0) return false;
    singles -= 1;
    return true;
  };
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    recordLine(io, String(chunk), single);
    return write.call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    await invoke();
  } finally {
    process.stdout.write = write;
    Metrics.prototype.singleMetric = singleMetric;
    serviceClients.forEach((client, index) => {
      client.send = sends[index] as SdkClient['send'];
    });
  }
  return io;
};

/** A function's floor bundle, as `bench/library-floor.ts` writes it. */
export type Floor = {
  handler: (event: FloorEvent, context: unknown) => Promise<unknown>;
  clients: SdkClient[];
  commandNames: string[];
};

/** Loads a floor bundle by its path, as Node would, not through the bundle of the script. */
const requireFile = createRequire(__filename);

/**
 * Loads a floor bundle, its clients set as the service's are where a harness sets them (`settings`:
 * an in-memory transport, an endpoint), converting items as the service's document client does.
 */
export const loadFloor = (file: string, settings: Record<string, unknown> = {}): Floor => {
  const floor = requireFile(file) as Floor;
  const translateConfig = (serviceClients[0]?.config as { translateConfig?: unknown } | undefined)?.translateConfig;
  for (const client of floor.clients) Object.assign(client.config, { translateConfig, ...settings });
  return floor;
};

/** Throws unless the floor can replay every call of `io`. */
export const checkReplayable = (name: string, floor: Floor, io: FloorEvent): void => {
  const missing = io.calls.map(([command]) => command).filter((command) => !floor.commandNames.includes(command));
  if (missing.length > 0) throw new Error(`the floor of ${name} has no ${missing.join(', ')}`);
};
