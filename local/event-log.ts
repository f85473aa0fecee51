import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AttributeValue, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { keyPrefix, tableSchema } from '@contract/table-schema';

/**
 * The local stand-in for the deployed path table stream → EventBridge Pipe → event bus: `npm start`
 * reads the table's stream from DynamoDB Local and shows each audit event as the bus would receive it.
 */

/**
 * The fields of an audit event, in the order they print. Typed as one `true` per key of
 * {@link AuditEvent}, so a field added to or removed from the contract fails to compile here.
 */
const auditEventFields: { readonly [Field in keyof AuditEvent]-?: true } = {
  id: true,
  time: true,
  type: true,
  actor: true,
  target: true,
  sourceIp: true,
  userAgent: true,
  requestId: true,
  details: true,
};

/** The event an audit item holds: its `AuditEvent` fields only, without the table's keys, entity and ttl. */
export const auditEventOfItem = (item: Readonly<Record<string, unknown>>): AuditEvent =>
  Object.fromEntries(
    Object.keys(auditEventFields)
      .filter((field) => field in item)
      .map((field) => [field, item[field]]),
  ) as unknown as AuditEvent;

/**
 * The audit event a stream record carries, or `undefined` for any other record. Only a new item in an
 * audit partition is one, as the pipe's filter has it: an update or removal of any item is not an event.
 */
export const auditEventOfRecord = (record: StreamRecord): AuditEvent | undefined => {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  if (!image[tableSchema.partitionKey]?.S?.startsWith(keyPrefix.audit)) return undefined;
  // The streams client declares its own AttributeValue, member for member the same as DynamoDB's.
  return auditEventOfItem(unmarshall(image as Record<string, AttributeValue>));
};

/** Receives each audit event in stream order; the next waits until it has settled. */
export type EventSink = (event: AuditEvent) => void | Promise<void>;

/** What the event log reads and where it sends the events. */
export interface EventLogOptions {
  /** DynamoDB (Local)'s endpoint, which serves the streams API too. */
  readonly endpoint: string;
  readonly tableName: string;
  readonly sink: EventSink;
  /** Pause after a read that found records, or after a nudge; default {@link DEFAULT_POLL_MS}. */
  readonly pollMs?: number;
  /** The longest pause while the stream stays empty; default {@link DEFAULT_IDLE_POLL_MS}. */
  readonly idlePollMs?: number;
  /** Where a failed read is told, one line per outage; default stderr. */
  readonly warn?: (line: string) => void;
}

/** A running event log. */
export interface EventLog {
  /**
   * Something may have been written (the service answered a request): the next read comes within
   * `pollMs`, and reads keep that pace while they find records.
   */
  nudge(): void;
  /** Stops reading, abandoning a read under way, and resolves once no sink call is left running. */
  stop(): Promise<void>;
}

/** Often enough that an event shows while the developer still looks at the request. */
export const DEFAULT_POLL_MS = 300;
/**
 * The pause grows from `pollMs` to this while reads find nothing (it doubles after each empty read): a
 * read every 300 ms cost an idle `npm start` and DynamoDB Local 1.5 s of CPU a half-minute between them.
 * An event written from elsewhere (another process, a script) shows within this; the service's own
 * requests nudge the log, so what they write shows within `pollMs`.
 */
export const DEFAULT_IDLE_POLL_MS = 2_400;
/** How often the stream's shards are listed again when none has ended: a new stream or a split shows within this. */
const DISCOVER_MS = 10_000;

/** The file under `DATA_DIR` that keeps every event, one JSON per line. */
export const EVENTS_FILE = 'events.jsonl';

/**
 * The sink of `npm start`: one `event: <json>` line on stdout per event and, with `dataDir`, the same
 * JSON as one line of `dataDir/events.jsonl`.
 */
export const printEvents =
  (dataDir?: string): EventSink =>
  async (event) => {
    const json = JSON.stringify(event);
    console.log(`event: ${json}`);
    if (dataDir) await appendFile(join(dataDir, EVENTS_FILE), `${json}\n`);
  };

/** Where one shard is read. */
interface ShardCursor {
  readonly streamArn: string;
  readonly shardId: string;
  readonly parentShardId: string | undefined;
  /** Where to start without a sequence number: `LATEST` for a shard open at start, else its beginning. */
  start: ShardIteratorType;
  /** The last record read, to resume after it when the iterator is lost. */
  lastSequence: string | undefined;
  iterator: string | undefined;
  /** Read to its end (or closed before the log started); its children may be read. */
  ended: boolean;
}

const errorName = (error: unknown): string => (error as { name?: string }).name ?? 'Error';
const errorText = (error: unknown): string =>
  `${errorName(error)}: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Starts reading the table's stream and sends each audit event to `sink`. Resolves once positioned
 * at the stream's end, so every event written after that is seen (events from before are not
 * replayed); when that first read fails it is told once through `warn`, and retried every poll.
 * A failed read never throws: it is told once per outage and retried, with the reading resumed where
 * it stopped.
 *
 * Shards: those open when the log starts are read from `LATEST`; shards that appear later (DynamoDB's
 * shard rollover, or a new stream when the table's stream is turned off and on) are read from
 * `TRIM_HORIZON`, each after its parent has been read to its end, so nothing written after the start
 * is missed and events keep their order. The shards are listed again when one ends, and every
 * {@link DISCOVER_MS} otherwise.
 */
export const startEventLog = async (options: EventLogOptions): Promise<EventLog> => {
  const { tableName, sink } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const idlePollMs = Math.max(pollMs, options.idlePollMs ?? DEFAULT_IDLE_POLL_MS);
  const warn = options.warn ?? ((line: string) => console.error(line));
  // One attempt per call: the poll is the retry. A stalled endpoint fails the read instead of hanging it.
  const settings = {
    endpoint: options.endpoint,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
  };
  const dynamo = new DynamoDBClient(settings);
  const streams = new DynamoDBStreamsClient(settings);
  const abort = new AbortController();
  const call = { abortSignal: abort.signal };

  const shards = new Map<string, ShardCursor>();
  let positioned = false;
  let discoverAt = 0;
  let failing = false;
  let stopped = false;
  /** Whether the read under way found records, or the log was nudged since it began: the next pause is `pollMs`. */
  let active = false;

  const listShards = async (streamArn: string): Promise<Shard[]> => {
    const all: Shard[] = [];
    let after: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }),
        call,
      );
      all.push(...(page.StreamDescription?.Shards ?? []));
      after = page.StreamDescription?.LastEvaluatedShardId;
    } while (after);
    return all;
  };

  /** Adds the shards not seen yet of the table's current stream. */
  const discover = async (): Promise<void> => {
    const { Table: table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }), call);
    const streamArn = table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${tableName} has no stream`);
    for (const shard of await listShards(streamArn)) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      // At start, what is already in the stream is history: an open shard is read from its end, and
      // a closed one not at all. Any shard that appears later holds only what came after the start.
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      shards.set(shard.ShardId, {
        streamArn,
        shardId: shard.ShardId,
        parentShardId: shard.ParentShardId,
        start: positioned ? 'TRIM_HORIZON' : 'LATEST',
        lastSequence: undefined,
        iterator: undefined,
        ended: !positioned && closed,
      });
    }
    positioned = true;
    discoverAt = Date.now() + DISCOVER_MS;
  };

  const iteratorOf = async (shard: ShardCursor): Promise<string | undefined> => {
    const position = shard.lastSequence
      ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: shard.lastSequence }
      : { ShardIteratorType: shard.start };
    const out = await streams.send(
      new GetShardIteratorCommand({ StreamArn: shard.streamArn, ShardId: shard.shardId, ...position }),
      call,
    );
    return out.ShardIterator;
  };

  const deliver = async (event: AuditEvent): Promise<void> => {
    try {
      await sink(event);
    } catch (error) {
      // A sink that fails (a full disk) loses this event's copy, not the log.
      warn(`Event log: could not record event ${event.id} (${errorText(error)}).`);
    }
  };

  const endShard = (shard: ShardCursor): void => {
    shard.ended = true;
    shard.iterator = undefined;
    discoverAt = 0;
  };

  const readShard = async (shard: ShardCursor): Promise<void> => {
    shard.iterator ??= await iteratorOf(shard);
    if (!shard.iterator) return endShard(shard);
    let page: GetRecordsCommandOutput;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator }), call);
    } catch (error) {
      const name = errorName(error);
      // An iterator lives 15 minutes; a new one resumes after the last record read.
      if (name === 'ExpiredIteratorException') shard.iterator = undefined;
      // The records after the last one read are gone (24 hours): go on from the oldest left.
      if (name === 'TrimmedDataAccessException') {
        Object.assign(shard, { iterator: undefined, lastSequence: undefined, start: 'TRIM_HORIZON' });
      }
      // The stream is gone with its table or its setting: drop the shard and look for a new stream.
      if (name === 'ResourceNotFoundException') endShard(shard);
      throw error;
    }
    for (const record of page.Records ?? []) {
      active = true;
      shard.lastSequence = record.dynamodb?.SequenceNumber ?? shard.lastSequence;
      const event = auditEventOfRecord(record);
      if (event) await deliver(event);
    }
    shard.iterator = page.NextShardIterator;
    // No next iterator: the shard is closed and read to its end; its children come next.
    if (!shard.iterator) endShard(shard);
  };

  /** Shards with something to read: not ended, and their parent (if the log knows it) read to its end. */
  const readable = (): ShardCursor[] =>
    [...shards.values()].filter((shard) => {
      const parent = shard.parentShardId === undefined ? undefined : shards.get(shard.parentShardId);
      return !shard.ended && (parent === undefined || parent.ended);
    });

  const poll = async (): Promise<void> => {
    try {
      if (!positioned || Date.now() >= discoverAt) await discover();
      for (const shard of readable()) {
        if (stopped) return;
        await readShard(shard);
      }
      if (failing) warn(`Event log: reading the stream of table ${tableName} again.`);
      failing = false;
    } catch (error) {
      if (stopped) return;
      if (!failing) {
        warn(
          `Event log: cannot read the stream of table ${tableName} (${errorText(error)}); retrying every ${pollMs} ms.`,
        );
      }
      failing = true;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  /** When the scheduled read runs (epoch ms); none while a read is under way. */
  let due: number | undefined;
  let pause = pollMs;
  let running: Promise<void> = poll();
  await running;
  const schedule = (ms: number): void => {
    clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(() => {
      due = undefined;
      active = false;
      running = poll().then(() => {
        if (stopped) return;
        // A failed read is retried at `pollMs`, as its warning says.
        pause = active || failing ? pollMs : Math.min(pause * 2, idlePollMs);
        schedule(pause);
      });
    }, ms);
    // The log never is what keeps a process alive.
    timer.unref();
  };
  schedule(pause);

  return {
    nudge: () => {
      active = true;
      pause = pollMs;
      if (!stopped && due !== undefined && due - Date.now() > pollMs) schedule(pollMs);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await running;
      dynamo.destroy();
      streams.destroy();
    },
  };
};
