import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteConditionCheck,
  type TransactWriteDelete,
  type TransactWriteItem,
  type TransactWritePut,
  type TransactWriteUpdate,
  type TranslateConfig,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { isUnavailable, sdkClientSettings, serviceClient } from '@lambdas/aws-sdk';
import { ServiceUnavailableError } from '@lambdas/domain/errors';
import { optionalUrlEnv, requiredEnv } from '@lambdas/env';
import type { ItemKey } from './keys';

/** Name of the service's one table: the helpers below name it in every call, so no repository does. */
const tableName = requiredEnv('TABLE_NAME');
/** Set only for DynamoDB Local. */
const endpoint = optionalUrlEnv('DYNAMODB_ENDPOINT');

/**
 * Settings of the service's DynamoDB client: every SDK client's retries and timeouts
 * (`lambdas/aws-sdk.ts`). No `cacheMiddleware`: the document client refuses it, as a cached stack
 * would send the first command's input again.
 */
export const clientSettings = sdkClientSettings satisfies DynamoDBClientConfig;

/** The service's DynamoDB client (`serviceClient`: one per container, traced, no logger middleware). */
export const dynamo = serviceClient(new DynamoDBClient({ ...clientSettings, endpoint }));

const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
]);

// Throttling and outages leave the data layer as the domain's error, so no caller above needs to know
// the SDK's error names; the original stays its cause, for the log.
dynamo.middlewareStack.add(
  (next) => (args) =>
    next(args).catch((error: unknown) => {
      throw isUnavailable(error, UNAVAILABLE_ERRORS) ? new ServiceUnavailableError({ cause: error }) : error;
    }),
  { step: 'initialize', priority: 'high', name: 'unavailableAsDomainError' },
);

/**
 * How items convert between JavaScript and DynamoDB. A field left `undefined` is left out, as if never
 * set. Anything but strings, numbers, booleans, null, lists and maps is refused rather than guessed
 * (no `convertClassInstanceToMap`), and so is a number beyond ±(2^53 - 1) (no
 * `allowImpreciseNumbers`), so that every number reads back exactly, as a plain number.
 */
export const translateConfig = {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false, allowImpreciseNumbers: false },
  unmarshallOptions: { wrapNumbers: false },
} satisfies TranslateConfig;

/**
 * The client the repositories' calls go through: items as plain records. It is the client above
 * (settings, middleware, connections), converting each command's items on the way.
 */
export const documentClient = DynamoDBDocumentClient.from(dynamo, translateConfig);

/** A record as the table holds it: one item's attributes, or the values of an expression. */
export type Attributes = Record<string, NativeAttributeValue>;

/**
 * One write of an item of the table, as a transaction names it, without the table's name: the helpers
 * below add it.
 */
export type TableWrite = PutWrite | UpdateWrite | DeleteWrite | ConditionCheckWrite;
/** A whole item written, replacing any of its key. */
export type PutWrite = { readonly Put: Omit<TransactWritePut, 'TableName'> };
/** Attributes of one item changed. */
export type UpdateWrite = { readonly Update: Omit<TransactWriteUpdate, 'TableName'> };
/** One item deleted. */
export type DeleteWrite = { readonly Delete: Omit<TransactWriteDelete, 'TableName'> };
/** A condition on one item that the transaction's other writes depend on. */
export type ConditionCheckWrite = { readonly ConditionCheck: Omit<TransactWriteConditionCheck, 'TableName'> };
/** A write sent on its own. */
export type SingleWrite = PutWrite | UpdateWrite;

const inTable = (write: TableWrite): TransactWriteItem => {
  if ('Put' in write) return { Put: Object.assign({ TableName: tableName }, write.Put) };
  if ('Update' in write) return { Update: Object.assign({ TableName: tableName }, write.Update) };
  if ('Delete' in write) return { Delete: Object.assign({ TableName: tableName }, write.Delete) };
  return { ConditionCheck: Object.assign({ TableName: tableName }, write.ConditionCheck) };
};

/**
 * What a write answers once made: nothing of DynamoDB's answer. The helpers of one call (this one,
 * `getItem`, `batchGet`, `queryPage`) chain the SDK's promise rather than await it in a function of
 * their own, as each promise more costs the Tracer's async hooks on every call; those that loop
 * (retries, pages) await.
 */
const nothing = (): void => undefined;

/** Sends one write whose condition, if it has one, must hold: a failed condition is an error. */
export const writeItem = (write: SingleWrite): Promise<void> =>
  ('Put' in write
    ? documentClient.send(new PutCommand(Object.assign({ TableName: tableName }, write.Put)))
    : documentClient.send(new UpdateCommand(Object.assign({ TableName: tableName }, write.Update)))
  ).then(nothing);

/**
 * Sends one conditional write whose failed condition is an answer, not an error: whether the write
 * was made.
 */
export const writeIfCondition = async (write: SingleWrite): Promise<boolean> => {
  try {
    await writeItem(write);
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
};

/** Applies one unconditional update and answers the item as it is after it. */
export const updateItem = async <T>(update: UpdateWrite['Update']): Promise<T | undefined> => {
  const { Attributes } = await documentClient.send(
    new UpdateCommand({ ...update, TableName: tableName, ReturnValues: 'ALL_NEW' }),
  );
  return Attributes as T | undefined;
};

/**
 * What a transaction came to: written, or cancelled because the conditions of the items at
 * `conditionFailed` (indexes into its writes) failed; `cause` is DynamoDB's cancellation, for the log.
 */
export type WriteOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly conditionFailed: readonly number[]; readonly cause: Error };

const WRITTEN: WriteOutcome = { ok: true };

const cancellationCodes = (error: unknown): (string | undefined)[] =>
  error instanceof Error && error.name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code)
    : [];

const TRANSACTION_ATTEMPTS = 5;

/**
 * Runs `writes` as one transaction. Whether the condition of a write at an index in `answering` failed
 * is an answer, given as the outcome (with every condition that failed); any other cancellation is an
 * error, thrown. DynamoDB cancels a transaction that races another on the same item
 * (`TransactionConflict`) without judging its conditions; those are run again after a short jittered
 * pause, so that concurrent requests end in their conditions' verdicts (409, 404) rather than errors.
 */
export const transactWrite = async (
  writes: readonly TableWrite[],
  answering: readonly number[] = [],
): Promise<WriteOutcome> => {
  const items = writes.map(inTable);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return WRITTEN;
    } catch (error) {
      const codes = cancellationCodes(error);
      const conditionFailed = codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
      if (conditionFailed.some((index) => answering.includes(index))) {
        return { ok: false, conditionFailed, cause: error as Error };
      }
      if (!codes.includes('TransactionConflict') || conditionFailed.length > 0) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) throw new ServiceUnavailableError({ cause: error });
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
    }
  }
};

/** One item by key, as the repository's record type (the table holds only what the repositories write). */
export const getItem = <T>(key: ItemKey, consistent: boolean): Promise<T | undefined> =>
  documentClient
    .send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: consistent }))
    .then(({ Item }) => Item as T | undefined);

/**
 * One BatchGetItem call of at most 100 keys: the items of those that exist, in no particular order,
 * and the keys DynamoDB left unprocessed (throttling), to ask for again.
 */
export const batchGet = <T>(
  keys: readonly ItemKey[],
  consistent: boolean,
): Promise<{ items: T[]; unprocessed: ItemKey[] }> =>
  documentClient
    .send(
      new BatchGetCommand({
        RequestItems: { [tableName]: { Keys: [...keys], ...(consistent && { ConsistentRead: true }) } },
      }),
    )
    .then(({ Responses, UnprocessedKeys }) => ({
      items: (Responses?.[tableName] ?? []) as T[],
      unprocessed: (UnprocessedKeys?.[tableName]?.Keys ?? []) as ItemKey[],
    }));

/** Keys one BatchGetItem call may name. */
const BATCH_GET_LIMIT = 100;
const BATCH_GET_ROUNDS = 5;

/**
 * The items of these keys that exist, in no particular order, strongly consistent when asked:
 * BatchGetItem in calls of at most 100 keys, asking again for keys DynamoDB left unprocessed
 * (throttling) a few times before giving up with a 503.
 */
export const batchGetItems = async <T>(keys: readonly ItemKey[], consistent = false): Promise<T[]> => {
  const items: T[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
    let pending = keys.slice(start, start + BATCH_GET_LIMIT);
    for (let round = 1; pending.length > 0; round += 1) {
      if (round > BATCH_GET_ROUNDS) throw new ServiceUnavailableError();
      const batch = await batchGet<T>(pending, consistent);
      items.push(...batch.items);
      pending = batch.unprocessed;
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * round));
    }
  }
  return items;
};

/** Keys one BatchWriteItem call may name. */
const BATCH_WRITE_LIMIT = 25;
const BATCH_WRITE_ROUNDS = 8;

/**
 * Deletes the items of these keys (an absent one is no error): BatchWriteItem in calls of at most 25
 * keys, sending again what DynamoDB left unprocessed (throttling) after a growing pause, a few times
 * before giving up with a `ServiceUnavailableError`. Unconditional: only for items no request guards.
 */
export const batchDeleteItems = async (keys: readonly ItemKey[]): Promise<void> => {
  for (let start = 0; start < keys.length; start += BATCH_WRITE_LIMIT) {
    let pending = keys.slice(start, start + BATCH_WRITE_LIMIT).map((key) => ({ DeleteRequest: { Key: key } }));
    for (let round = 1; pending.length > 0; round += 1) {
      if (round > BATCH_WRITE_ROUNDS) throw new ServiceUnavailableError();
      const { UnprocessedItems } = await documentClient.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
      );
      pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
    }
  }
};

/** A Query of the table or one of its indexes, without the table's name or a start key. */
export type TableQuery = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** One page of a query from `startKey`: its items, and the key to read the next from (none after the last). */
export const queryPage = <T = Attributes>(
  input: TableQuery,
  startKey: Attributes | undefined,
): Promise<{ items: T[]; lastKey: Attributes | undefined }> =>
  documentClient
    .send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: startKey }))
    .then((page) => ({ items: (page.Items ?? []) as T[], lastKey: page.LastEvaluatedKey }));

/** Every item of a query, following the pages to the end (lists are bounded: 100 live tokens, one item per membership). */
export const queryAll = async <T>(input: TableQuery): Promise<T[]> => {
  const items: T[] = [];
  let cursor: Attributes | undefined;
  do {
    const page = await queryPage<T>(input, cursor);
    items.push(...page.items);
    cursor = page.lastKey;
  } while (cursor);
  return items;
};
