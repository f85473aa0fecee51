import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import { type ClientRequest, createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type IndexSchema, projectsAll, tableSchema } from '../contract/table-schema';
import { until } from './until';

/** An attribute value in DynamoDB's JSON wire form (`{"S": "..."}`, `{"N": "1"}`, `{"M": {...}}`, ...). */
type WireValue = Record<string, unknown>;
/** An item in DynamoDB's JSON wire form. */
export type WireItem = Record<string, WireValue>;

/** Read and write units one forwarded request consumed. */
export interface CallCapacity {
  /** Read plus write units: what DynamoDB bills for the call. */
  readonly total: number;
  readonly read: number;
  readonly write: number;
  /**
   * `reported`: DynamoDB Local's `ConsumedCapacity`. `computed`: from DynamoDB's documented rules and the
   * items' sizes, where DynamoDB Local's figure is known to be wrong (see `transactionCapacity`) or is
   * below DynamoDB's minimum charge for a read.
   */
  readonly source: 'reported' | 'computed';
  /** DynamoDB Local's own figure, when it sent one (kept for comparison when `source` is `computed`). */
  readonly reported?: number;
}

/** One request the proxy forwarded. Fields after `status` are filled in once DynamoDB has answered. */
export interface ForwardedCall {
  /** X-Amz-Target without the API version, e.g. `GetItem`. */
  readonly operation: string;
  /** The phase the call was made in (see `CountingProxy.withPhase`); undefined when made outside one. */
  readonly phase: string | undefined;
  /** `ConsistentRead` of a GetItem, a Query or (of every table it reads) a BatchGetItem. */
  readonly consistent?: boolean;
  /** Index a Query read. */
  readonly index?: string;
  /** The items or partitions the call touched, e.g. `TOKEN#abc/TOKEN`, `GSI1:USER#u#TOKENS`. */
  readonly targets: readonly string[];
  /** Actions of a TransactWriteItems, e.g. `['ConditionCheck', 'Put']`. */
  readonly actions?: readonly string[];
  status?: number;
  capacity?: CallCapacity;
  /** Items a GetItem or Query returned. */
  items?: number;
}

/** A change to a request's body on its way to DynamoDB. */
type BodyChange = (body: Record<string, unknown>) => void | Promise<void>;

/** A pass-through proxy in front of DynamoDB that counts the operations it forwards and what they cost. */
export interface CountingProxy {
  readonly endpoint: string;
  /** Operations forwarded so far (X-Amz-Target without the API version, e.g. `GetItem`). */
  readonly operations: string[];
  /** Every forwarded request with its phase, consistency and consumed capacity. */
  readonly calls: ForwardedCall[];
  /**
   * Runs `fn`; every DynamoDB request it causes through this proxy, including ones it starts and does not
   * await, is recorded with `phase`. The phase follows the async context (AsyncLocalStorage), not time.
   */
  withPhase<T>(phase: string, fn: () => Promise<T>): Promise<T>;
  /** Resolves once no forwarded request is in flight (after letting just-started ones arrive). */
  settled(): Promise<void>;
  /**
   * Changes every request body of `operation` before it reaches DynamoDB (undefined: forward as sent):
   * how a test makes DynamoDB itself refuse a call, e.g. cancel a transaction. The request waits for
   * a change that returns a promise: how a test lines racing requests up.
   */
  rewrite(operation: string, change: BodyChange | undefined): void;
  /**
   * Holds the first request of `operation` whose body `matches` until `during` has run, and that same
   * request sent again too: the client gives a held request up after its one-second timeout and sends
   * it again (the same body), and on a busy machine `during` outlasts that, so the resent request let
   * through would land in the middle of `during` rather than after it. Other requests, `during`'s own
   * included, pass. `ran` answers what `during` answered (it fails when no request matched); `release`
   * lets every request through again.
   */
  hold(
    operation: string,
    matches: (body: Record<string, unknown>) => boolean,
    during: () => Promise<unknown>,
  ): { ran(): Promise<unknown>; release(): void };
  /**
   * Holds the answer to the next request of `operation`, after DynamoDB has carried it out, until
   * `release` settles: how a test makes an answer arrive too late for the client, which sends again.
   */
  delayNextAnswer(operation: string, release: Promise<unknown>): void;
  close(): Promise<void>;
}

const DATA_OPERATIONS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);
const READ_OPERATIONS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

const KB = 1024;
const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Size of one attribute value by DynamoDB's item-size rules (numbers and nested overheads approximated). */
const valueSize = (value: WireValue): number => {
  const [type, content] = Object.entries(value)[0] ?? [];
  switch (type) {
    case 'S':
      return utf8(String(content));
    case 'N': {
      const digits = String(content)
        .replace(/^[-+]/, '')
        .replace(/e.*$/i, '')
        .replace('.', '')
        .replace(/^0+|0+$/g, '');
      return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
    }
    case 'B':
      return Buffer.from(String(content), 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (content as string[]).reduce((sum, text) => sum + utf8(text), 0);
    case 'NS':
      return (content as string[]).reduce((sum, text) => sum + valueSize({ N: text }), 0);
    case 'BS':
      return (content as string[]).reduce((sum, text) => sum + Buffer.from(text, 'base64').length, 0);
    case 'L':
      return 3 + (content as WireValue[]).reduce((sum, element) => sum + valueSize(element) + 1, 0);
    case 'M':
      return 3 + Object.entries(content as WireItem).reduce((sum, [name, v]) => sum + utf8(name) + valueSize(v) + 1, 0);
    default:
      return 0;
  }
};

/** Size of an item: every attribute's name plus its value. */
export const itemSize = (item: WireItem | undefined): number =>
  item ? Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0) : 0;

/** Write units of one write of an item this size: 1 per KB, rounded up, at least 1. */
const writeUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / KB));
/** Whether a read asked for strong consistency (a BatchGetItem: for every table it reads); `undefined` for a write. */
const readConsistency = (operation: string, body: Record<string, unknown> | undefined): boolean | undefined => {
  if (operation === 'GetItem' || operation === 'Query') return body?.ConsistentRead === true;
  if (operation !== 'BatchGetItem') return undefined;
  const tables = Object.values((body?.RequestItems ?? {}) as Record<string, { ConsistentRead?: boolean }>);
  return tables.length > 0 && tables.every((table) => table.ConsistentRead === true);
};

/** How many keys a BatchGetItem asks for, over all its tables. */
const batchKeys = (body: Record<string, unknown> | undefined): number =>
  Object.values((body?.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>).reduce(
    (sum, table) => sum + (table.Keys?.length ?? 0),
    0,
  );

/** Read units of reading this many bytes: 1 per 4 KB (strongly consistent) or half that, at least one read. */
export const readUnits = (bytes: number, consistent: boolean): number =>
  Math.max(1, Math.ceil(bytes / (4 * KB))) * (consistent ? 1 : 0.5);

const stringOf = (value: WireValue | undefined): string | undefined =>
  typeof value?.S === 'string' ? value.S : typeof value?.N === 'string' ? value.N : undefined;

const keyText = (key: WireItem | undefined): string =>
  `${stringOf(key?.[tableSchema.partitionKey]) ?? '?'}/${stringOf(key?.[tableSchema.sortKey]) ?? '?'}`;

const keyOf = (item: WireItem): WireItem => {
  const key: WireItem = {};
  for (const name of [tableSchema.partitionKey, tableSchema.sortKey]) {
    const value = item[name];
    if (value) key[name] = value;
  }
  return key;
};

/** What an index holds of an item: all of it, or its keys and the attributes the index projects. */
const projected = (index: IndexSchema, item: WireItem): WireItem =>
  projectsAll(index)
    ? item
    : Object.fromEntries(
        Object.entries(item).filter(([name]) =>
          [
            tableSchema.partitionKey,
            tableSchema.sortKey,
            index.partitionKey,
            index.sortKey,
            ...index.projection,
          ].includes(name),
        ),
      );

/**
 * Write units one index spends on a write, given the item before and after (absent: undefined). The
 * index entry is what the index projects of the item. Rules as DynamoDB charges them: joining or leaving
 * the index costs the entry; an identical entry costs nothing; a changed entry in place costs the larger
 * image; a moved index key costs both images.
 */
const indexWriteUnits = (before: WireItem | undefined, after: WireItem | undefined): number =>
  tableSchema.globalSecondaryIndexes.reduce((sum, index) => {
    const entry = (item: WireItem | undefined) =>
      item?.[index.partitionKey] && item[index.sortKey]
        ? {
            key: `${stringOf(item[index.partitionKey])}\u0000${stringOf(item[index.sortKey])}`,
            item: projected(index, item),
          }
        : undefined;
    const old = entry(before);
    const next = entry(after);
    if (!old && !next) return sum;
    if (!old && next) return sum + writeUnits(itemSize(next.item));
    if (old && !next) return sum + writeUnits(itemSize(old.item));
    if (old && next && old.key !== next.key)
      return sum + writeUnits(itemSize(old.item)) + writeUnits(itemSize(next.item));
    if (JSON.stringify(canonical(old?.item)) === JSON.stringify(canonical(next?.item))) return sum;
    return sum + Math.max(writeUnits(itemSize(old?.item)), writeUnits(itemSize(next?.item)));
  }, 0);

const canonical = (item: WireItem | undefined) =>
  item ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : undefined;

interface TransactAction {
  readonly kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  readonly key: WireItem;
  readonly putItem?: WireItem;
}

const transactActions = (body: Record<string, unknown>): TransactAction[] =>
  ((body.TransactItems as Record<string, { Key?: WireItem; Item?: WireItem }>[] | undefined) ?? []).flatMap((entry) => {
    const [kind, action] = Object.entries(entry)[0] ?? [];
    if (!kind || !action) return [];
    const key = action.Key ?? keyOf(action.Item ?? {});
    return [{ kind: kind as TransactAction['kind'], key, putItem: action.Item }];
  });

/**
 * TransactWriteItems capacity from DynamoDB's documented rule, because DynamoDB Local's figure is wrong:
 * it charges equal-sized items of one transaction once (two 500-byte Puts report 2 units, not 4). DynamoDB
 * performs two writes of every item of a transaction (prepare and commit), a ConditionCheck included, so
 * each action costs 2 units per KB of its item (the larger of before and after), rounded up per item. Index
 * writes follow the single-write index rule, doubled as DynamoDB Local doubles them (an upper bound).
 */
const transactionCapacity = (
  actions: readonly TransactAction[],
  before: readonly (WireItem | undefined)[],
  after: readonly (WireItem | undefined)[],
): number =>
  actions.reduce((sum, action, i) => {
    const old = before[i];
    const next = action.kind === 'Delete' ? undefined : action.kind === 'ConditionCheck' ? old : after[i];
    const table = 2 * writeUnits(Math.max(itemSize(old), itemSize(next)));
    const index = action.kind === 'ConditionCheck' ? 0 : 2 * indexWriteUnits(old, next);
    return sum + table + index;
  }, 0);

interface ConsumedCapacityWire {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const sumReported = (consumed: unknown): { total: number; read?: number; write?: number } | undefined => {
  if (!consumed) return undefined;
  const list = (Array.isArray(consumed) ? consumed : [consumed]) as ConsumedCapacityWire[];
  let total = 0;
  let read: number | undefined;
  let write: number | undefined;
  for (const entry of list) {
    total += entry.CapacityUnits ?? 0;
    if (entry.ReadCapacityUnits !== undefined) read = (read ?? 0) + entry.ReadCapacityUnits;
    if (entry.WriteCapacityUnits !== undefined) write = (write ?? 0) + entry.WriteCapacityUnits;
  }
  return { total, read, write };
};

const describeTargets = (operation: string, body: Record<string, unknown>): string[] => {
  if (operation === 'Query') {
    const values = (body.ExpressionAttributeValues ?? {}) as WireItem;
    const partition = Object.values(values)[0];
    return [`${body.IndexName ? `${String(body.IndexName)}:` : ''}${stringOf(partition) ?? '?'}`];
  }
  if (operation === 'TransactWriteItems') return transactActions(body).map((action) => keyText(action.key));
  const key = (body.Key as WireItem | undefined) ?? (body.Item ? keyOf(body.Item as WireItem) : undefined);
  return key ? [keyText(key)] : [];
};

const parseJson = (buffer: Buffer): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(buffer.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

const readAll = async (stream: AsyncIterable<Buffer>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** What the client side of one request to the proxy said about itself, queued per client port. */
interface Tag {
  readonly target: string;
  readonly phase: string | undefined;
}

/** Starts a counting proxy to `target` on a free loopback port. */
export const startCountingProxy = async (target: string): Promise<CountingProxy> => {
  const upstream = new URL(target);
  const operations: string[] = [];
  const calls: ForwardedCall[] = [];
  const phases = new AsyncLocalStorage<string>();
  /** Tags of requests sent to the proxy, per client port, in the order HTTP/1.1 delivers them. */
  const tags = new Map<number, Tag[]>();
  let inFlight = 0;
  /**
   * Requests this process has started towards the proxy and not yet seen end, answered or failed: a
   * request on a kept-alive connection the other end had just closed never arrives, and the SDK sends
   * it again on a new one, so counting arrivals against starts would wait for it for ever.
   */
  let unfinished = 0;
  let port = 0;
  const rewrites = new Map<string, BodyChange>();
  const answerDelays = new Map<string, Promise<unknown>>();

  // Observes every HTTP request this process sends (the SDK's included): a request to the proxy is
  // tagged with the phase of the async context that sent it, keyed by its socket's local port, which
  // is the remote port the proxy sees. One connection carries one request at a time, so a queue per
  // port pairs tags with arrivals.
  const onRequestStart = (message: unknown) => {
    const { request: started } = message as { request: ClientRequest };
    if (String(started.getHeader('host') ?? '').endsWith(`:${port}`)) {
      unfinished += 1;
      started.once('close', () => {
        unfinished -= 1;
      });
    }
    const tag: Tag = { target: String(started.getHeader('x-amz-target') ?? ''), phase: phases.getStore() };
    const enqueue = (socket: Socket) => {
      if (socket.remotePort !== port || socket.localPort === undefined) return;
      const queue = tags.get(socket.localPort) ?? [];
      queue.push(tag);
      tags.set(socket.localPort, queue);
    };
    const socket = started.socket;
    if (!socket) return;
    if (socket.remotePort !== undefined) enqueue(socket);
    else socket.once('connect', () => enqueue(socket));
  };
  diagnosticsChannel.subscribe('http.client.request.start', onRequestStart);

  const tagFor = (clientPort: number | undefined, amzTarget: string): Tag | undefined => {
    const queue = clientPort === undefined ? undefined : tags.get(clientPort);
    while (queue?.length) {
      const tag = queue.shift();
      if (tag?.target === amzTarget) return tag;
    }
    return undefined;
  };

  /** One request straight to DynamoDB (not recorded): reads items around a transaction to size it. */
  const sideCall = async (operation: string, body: unknown, headers: IncomingHttpHeaders) => {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise<Record<string, unknown> | undefined>((resolve) => {
      const side = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: 'POST',
          path: '/',
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `DynamoDB_20120810.${operation}`,
            // DynamoDB Local keeps one database per access key and region, read from this header.
            authorization: headers.authorization ?? '',
            'content-length': payload.length,
          },
        },
        (answer) => {
          void readAll(answer).then((data) => resolve(parseJson(data)));
        },
      );
      side.on('error', () => resolve(undefined));
      side.end(payload);
    });
  };

  const readItems = (tableName: string, actions: readonly TransactAction[], headers: IncomingHttpHeaders) =>
    Promise.all(
      actions.map(async (action) => {
        const answer = await sideCall(
          'GetItem',
          { TableName: tableName, Key: action.key, ConsistentRead: true },
          headers,
        );
        return answer?.Item as WireItem | undefined;
      }),
    );

  const finished = () => {
    inFlight -= 1;
  };

  const server = createServer((req, res) => {
    const amzTarget = String(req.headers['x-amz-target'] ?? '');
    const operation = amzTarget.split('.')[1] ?? 'unknown';
    operations.push(operation);
    inFlight += 1;
    res.on('close', finished);
    void (async () => {
      const received = await readAll(req);
      const body = DATA_OPERATIONS.has(operation) ? parseJson(received) : undefined;
      if (body) await rewrites.get(operation)?.(body);
      const clientAsked = body?.ReturnConsumedCapacity !== undefined && body.ReturnConsumedCapacity !== 'NONE';
      if (body && !clientAsked) body.ReturnConsumedCapacity = 'TOTAL';
      const consistent = readConsistency(operation, body);
      const actions = operation === 'TransactWriteItems' && body ? transactActions(body) : [];
      const call: ForwardedCall = {
        operation,
        phase: tagFor(req.socket.remotePort, amzTarget)?.phase,
        ...(consistent !== undefined && { consistent }),
        ...(typeof body?.IndexName === 'string' && { index: body.IndexName }),
        targets: body ? describeTargets(operation, body) : [],
        ...(actions.length > 0 && { actions: actions.map((action) => action.kind) }),
      };
      calls.push(call);
      const tableName = String(
        body?.TableName ??
          (body?.TransactItems as Record<string, { TableName?: string }>[] | undefined)?.[0]?.[actions[0]?.kind ?? '']
            ?.TableName ??
          '',
      );
      const before = actions.length > 0 ? await readItems(tableName, actions, req.headers) : [];
      const payload = body ? Buffer.from(JSON.stringify(body)) : received;
      // Addressed to DynamoDB, not to the proxy (DynamoDB Local checks no signature, which covers the host).
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(payload.length) };
      delete headers['transfer-encoding'];
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          void (async () => {
            const data = await readAll(answer);
            call.status = answer.statusCode;
            const parsed = body ? parseJson(data) : undefined;
            if (parsed)
              await account(call, operation, consistent ?? false, parsed, actions, before, tableName, req.headers, {
                requestedKeys: batchKeys(body),
              });
            const delay = answerDelays.get(operation);
            if (delay) {
              answerDelays.delete(operation);
              await delay;
            }
            // The answer goes back byte for byte (its CRC32 header stays right); the SDK ignores a
            // ConsumedCapacity it did not ask for.
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(data);
          })().catch(() => res.destroy());
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(payload);
    })().catch(() => res.destroy());
  });

  const account = async (
    call: ForwardedCall,
    operation: string,
    consistent: boolean,
    answer: Record<string, unknown>,
    actions: readonly TransactAction[],
    before: readonly (WireItem | undefined)[],
    tableName: string,
    headers: IncomingHttpHeaders,
    { requestedKeys }: { requestedKeys: number },
  ): Promise<void> => {
    if ((call.status ?? 500) >= 300) return;
    const reported = sumReported(answer.ConsumedCapacity);
    const isRead = READ_OPERATIONS.has(operation);
    if (operation === 'GetItem' || operation === 'Query') {
      const items =
        operation === 'GetItem' ? (answer.Item ? [answer.Item as WireItem] : []) : ((answer.Items ?? []) as WireItem[]);
      call.items = items.length;
      // DynamoDB charges at least one read even when nothing is found; DynamoDB Local reports an empty
      // Query as 0.
      const minimum = readUnits(0, consistent);
      if (reported && reported.total >= minimum) {
        call.capacity = { total: reported.total, read: reported.total, write: 0, source: 'reported' };
      } else {
        const units = readUnits(
          items.reduce((sum, item) => sum + itemSize(item), 0),
          consistent,
        );
        call.capacity = { total: units, read: units, write: 0, source: 'computed', reported: reported?.total };
      }
      return;
    }
    if (operation === 'BatchGetItem') {
      // Each key is a read of its own: its item's size rounded up, and the minimum when nothing is found.
      const found = Object.values((answer.Responses ?? {}) as Record<string, WireItem[]>).flat();
      const units =
        found.reduce((sum, item) => sum + readUnits(itemSize(item), consistent), 0) +
        Math.max(0, requestedKeys - found.length) * readUnits(0, consistent);
      call.items = found.length;
      call.capacity =
        reported && reported.total >= units
          ? { total: reported.total, read: reported.total, write: 0, source: 'reported' }
          : { total: units, read: units, write: 0, source: 'computed', reported: reported?.total };
      return;
    }
    if (operation === 'TransactWriteItems') {
      const after = await readItems(tableName, actions, headers);
      const units = transactionCapacity(actions, before, after);
      call.capacity = { total: units, read: 0, write: units, source: 'computed', reported: reported?.total };
      return;
    }
    if (!reported) return;
    call.capacity = {
      total: reported.total,
      read: reported.read ?? (isRead ? reported.total : 0),
      write: reported.write ?? (isRead ? 0 : reported.total),
      source: 'reported',
    };
  };

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    operations,
    calls,
    withPhase: (phase, fn) => phases.run(phase, fn),
    // Every request this process started towards the proxy has ended, and the proxy answers none: one
    // started without being awaited arrives some event-loop turns later, however long that takes.
    settled: () =>
      until(
        () => (unfinished === 0 && inFlight === 0 ? true : undefined),
        () => ({ unfinished, inFlight }),
      ).then(() => undefined),
    delayNextAnswer: (operation, release) => {
      answerDelays.set(operation, release);
    },
    rewrite: (operation, change) => {
      if (change) rewrites.set(operation, change);
      else rewrites.delete(operation);
    },
    hold: (operation, matches, during) => {
      let ran: Promise<unknown> | undefined;
      let held: string | undefined;
      rewrites.set(operation, async (body) => {
        const sent = JSON.stringify(body);
        if (held === undefined && matches(body)) {
          held = sent;
          ran = during();
        }
        if (sent === held) await ran;
      });
      return {
        ran: () => ran ?? Promise.reject(new Error(`No ${operation} request matched, so nothing ran`)),
        release: () => rewrites.delete(operation),
      };
    },
    close: async () => {
      diagnosticsChannel.unsubscribe('http.client.request.start', onRequestStart);
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

/** A hold on one operation's requests until the reads a race needs are done (see `holdUntilAnswered`). */
export interface ReadBarrier {
  /** True once DynamoDB answered the reads; false when the time ran out (or released) first. */
  readonly reached: Promise<boolean>;
  /** Lets held and later requests go; call it in a `finally`. */
  release(): void;
}

/**
 * Holds every request of `operation` until DynamoDB has answered `count` of the calls from now on that
 * `awaited` picks, or for `timeoutMs` at most: how a test makes racing runs all read before any of them
 * writes, however the machine schedules them. Counting answers, not arrivals, leaves no gap between a
 * read let through and a write that overtakes it. A bounded poll of `calls`, which the proxy fills in.
 */
export const holdUntilAnswered = (
  proxy: CountingProxy,
  operation: string,
  awaited: (call: ForwardedCall) => boolean,
  count: number,
  timeoutMs: number,
): ReadBarrier => {
  const from = proxy.calls.length;
  const answered = () => proxy.calls.slice(from).filter((call) => call.status !== undefined && awaited(call)).length;
  let settle: (reached: boolean) => void = () => {};
  const reached = new Promise<boolean>((resolve) => {
    const poll = setInterval(() => {
      if (answered() >= count) settle(true);
    }, 10);
    const deadline = setTimeout(() => settle(false), timeoutMs);
    settle = (value) => {
      clearInterval(poll);
      clearTimeout(deadline);
      resolve(value);
    };
  });
  proxy.rewrite(operation, async () => {
    await reached;
  });
  return {
    reached,
    release: () => {
      settle(false);
      proxy.rewrite(operation, undefined);
    },
  };
};
