import type { AuditEvent } from '@contract/audit';
import { MAX_EXPORT_BYTES, MAX_SECRETS } from '@contract/limits';
import { tableSchema } from '@contract/table-schema';
import type {
  EnvironmentRecord,
  MemberRecord,
  PairContext,
  ProjectRecord,
  ReferencedItems,
  SecretContext,
  SecretHeadRecord,
  SecretVersionRecord,
  SecretWrite,
  SecretWriteOutcome,
  SecretWrites,
} from '@lambdas/domain/records';
import { placeKey, type ReferenceTarget, targetKey, type ValuePlace } from '@lambdas/domain/references';
import { auditEventPut } from './audit-repository';
import { closingWrites } from './change-request-repository';
import {
  batchDeleteItems,
  batchGetItems,
  getItem,
  queryAll,
  type TableWrite,
  transactWrite,
  writeItem,
} from './client';
import {
  environmentKey,
  type ItemKey,
  lifeOfSecretVersion,
  memberKey,
  projectKey,
  SECRET_HEAD_PREFIX,
  secretHeadKey,
  secretsPartition,
  secretVersionKey,
  secretVersionPrefix,
  secretVersionsPrefix,
} from './keys';
import { asMember } from './member-item';

type Item = { readonly PK: string; readonly SK: string } & Record<string, unknown>;

/**
 * The caller's membership, the environment, the heads of `names` and, with `withProject`, the project,
 * strongly consistent, in one BatchGetItem (two past 100 keys).
 */
export const readSecretContext = async (
  projectId: string,
  userId: string,
  environment: string,
  names: readonly string[],
  withProject: boolean,
): Promise<SecretContext> => {
  const member = memberKey(projectId, userId);
  const place = environmentKey(projectId, environment);
  const project = projectKey(projectId);
  const keys: ItemKey[] = [member, place, ...names.map((name) => secretHeadKey(projectId, environment, name))];
  if (withProject) keys.push(project);
  const items = await batchGetItems<Item>(keys, true);
  const find = (key: ItemKey) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  return {
    member: asMember(find(member)),
    environment: find(place) as EnvironmentRecord | undefined,
    project: withProject ? (find(project) as ProjectRecord | undefined) : undefined,
    heads: headsIn(items, projectId, environment),
  };
};

type EnvironmentHeads = ReadonlyMap<string, SecretHeadRecord>;

/** The heads among `items` that are in an environment's secrets partition, by name. */
const headsIn = (items: readonly Item[], projectId: string, environment: string): Map<string, SecretHeadRecord> => {
  const partition = secretsPartition(projectId, environment);
  const heads = new Map<string, SecretHeadRecord>();
  for (const item of items) {
    if (item.PK === partition) {
      const head = item as unknown as SecretHeadRecord;
      heads.set(head.name, head);
    }
  }
  return heads;
};

/**
 * What a request about two environments reads first: the caller's membership, both environments, the
 * heads of `names` in each and, with `withProject`, the project, strongly consistent, in one
 * BatchGetItem (two past 100 keys).
 */
export const readPairContext = async (
  projectId: string,
  userId: string,
  environments: { readonly from: string; readonly to: string },
  names: readonly string[],
  withProject: boolean,
): Promise<PairContext> => {
  const { from, to } = environments;
  const member = memberKey(projectId, userId);
  const places = [environmentKey(projectId, from), environmentKey(projectId, to)] as const;
  const project = projectKey(projectId);
  const keys: ItemKey[] = [
    member,
    ...places,
    ...[from, to].flatMap((environment) => names.map((name) => secretHeadKey(projectId, environment, name))),
  ];
  if (withProject) keys.push(project);
  const items = await batchGetItems<Item>(keys, true);
  const find = (key: ItemKey) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  return {
    member: asMember(find(member)),
    project: withProject ? (find(project) as ProjectRecord | undefined) : undefined,
    from: { environment: find(places[0]) as EnvironmentRecord | undefined, heads: headsIn(items, projectId, from) },
    to: { environment: find(places[1]) as EnvironmentRecord | undefined, heads: headsIn(items, projectId, to) },
  };
};

/**
 * The project (its wrapped data key) and the heads of `names` in two environments, with their values,
 * strongly consistent, in one BatchGetItem (more past 100 keys): what a compare opens of heads written
 * before value digests.
 */
export const readHeadValues = async (
  projectId: string,
  environments: { readonly from: string; readonly to: string },
  names: readonly string[],
): Promise<Pick<PairContext, 'project'> & { readonly from: EnvironmentHeads; readonly to: EnvironmentHeads }> => {
  const { from, to } = environments;
  const project = projectKey(projectId);
  const keys: ItemKey[] = [
    project,
    ...[from, to].flatMap((environment) => names.map((name) => secretHeadKey(projectId, environment, name))),
  ];
  const items = await batchGetItems<Item>(keys, true);
  return {
    project: items.find((item) => item.PK === project.PK && item.SK === project.SK) as ProjectRecord | undefined,
    from: headsIn(items, projectId, from),
    to: headsIn(items, projectId, to),
  };
};

/**
 * What a round of resolving references reads, strongly consistent, in one BatchGetItem (more past 100
 * keys): the caller's membership and the project of each of `projects`, each of `environments`, and
 * the heads of `heads`, with their values.
 */
export const readReferenced = async (
  userId: string,
  wanted: {
    readonly projects: readonly string[];
    readonly environments: readonly ValuePlace[];
    readonly heads: readonly ReferenceTarget[];
  },
): Promise<ReferencedItems> => {
  const keyed = new Map<string, ItemKey>();
  const add = (key: ItemKey) => keyed.set(`${key.PK}\n${key.SK}`, key);
  for (const projectId of wanted.projects) {
    add(memberKey(projectId, userId));
    add(projectKey(projectId));
  }
  for (const place of wanted.environments) add(environmentKey(place.projectId, place.environment));
  for (const target of wanted.heads) add(secretHeadKey(target.projectId, target.environment, target.name));
  const items = await batchGetItems<Item>([...keyed.values()], true);
  const found = new Map(items.map((item) => [`${item.PK}\n${item.SK}`, item]));
  const find = <T>(key: ItemKey) => found.get(`${key.PK}\n${key.SK}`) as T | undefined;
  const byKey = <K, T>(entries: readonly K[], keyOf: (entry: K) => ItemKey, name: (entry: K) => string) => {
    const map = new Map<string, T>();
    for (const entry of entries) {
      const item = find<T>(keyOf(entry));
      if (item !== undefined) map.set(name(entry), item);
    }
    return map;
  };
  return {
    members: new Map(
      [...byKey<string, Item>(wanted.projects, (projectId) => memberKey(projectId, userId), String)].map(
        ([projectId, item]): [string, MemberRecord] => [projectId, asMember(item) as MemberRecord],
      ),
    ),
    projects: byKey<string, ProjectRecord>(wanted.projects, projectKey, String),
    environments: byKey<ValuePlace, EnvironmentRecord>(
      wanted.environments,
      (place) => environmentKey(place.projectId, place.environment),
      placeKey,
    ),
    heads: byKey<ReferenceTarget, SecretHeadRecord>(
      wanted.heads,
      (target) => secretHeadKey(target.projectId, target.environment, target.name),
      targetKey,
    ),
  };
};

/** One version of a life of a secret, strongly consistent. */
export const getSecretVersion = (
  projectId: string,
  environment: string,
  name: string,
  life: string,
  version: number,
): Promise<SecretVersionRecord | undefined> =>
  getItem<SecretVersionRecord>(secretVersionKey(projectId, environment, name, life, version), true);

/**
 * Every head of an environment, deleted ones included, strongly consistent; their values only when
 * asked, their values' digests always.
 */
export const listSecretHeads = (
  projectId: string,
  environment: string,
  withValues: boolean,
): Promise<SecretHeadRecord[]> =>
  queryAll<SecretHeadRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :head)',
    ExpressionAttributeValues: { ':pk': secretsPartition(projectId, environment), ':head': SECRET_HEAD_PREFIX },
    ...(!withValues && {
      ProjectionExpression: '#name, version, updatedAt, updatedBy, deletedAt, environmentLife, valueDigest',
      ExpressionAttributeNames: { '#name': 'name' },
    }),
    ConsistentRead: true,
  });

/** The versions of one life of a secret, newest first, without their values, strongly consistent. */
export const listSecretVersions = (
  projectId: string,
  environment: string,
  name: string,
  life: string,
): Promise<SecretVersionRecord[]> =>
  queryAll<SecretVersionRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :versions)',
    ExpressionAttributeValues: {
      ':pk': secretsPartition(projectId, environment),
      ':versions': secretVersionPrefix(name, life),
    },
    ProjectionExpression: '#name, version, updatedAt, updatedBy, deleted',
    ExpressionAttributeNames: { '#name': 'name' },
    ScanIndexForward: false,
    ConsistentRead: true,
  });

/** A condition that `attribute` is still as read: `value`, or absent when it was. */
const asRead = (
  attribute: string,
  placeholder: string,
  value: string | number | undefined,
  values: Record<string, number | string>,
): string => {
  if (value === undefined) return `attribute_not_exists(${attribute})`;
  values[placeholder] = value;
  return `${attribute} = ${placeholder}`;
};

/**
 * The environment's counts moved by the deltas and its secrets' revision raised (a poller's entity tag
 * then changes), kept under their limits, the environment still there in
 * the life the heads were judged in (not deleted and made again since) and with the settings the write
 * was allowed by (not protected, nor members' default access lowered, since).
 */
const environmentUpdate = (change: SecretWrites): TableWrite => {
  const conditions = ['attribute_exists(PK)'];
  const values: Record<string, number | string> = {
    ':count': change.countDelta,
    ':bytes': change.bytesDelta,
    ':zero': 0,
    ':one': 1,
  };
  conditions.push(asRead('life', ':life', change.environmentLife, values));
  conditions.push(asRead('revision', ':revision', change.environmentRevision, values));
  if (change.countDelta > 0) {
    conditions.push('secretCount <= :countRoom');
    values[':countRoom'] = MAX_SECRETS - change.countDelta;
  }
  if (change.bytesDelta > 0) {
    conditions.push('(attribute_not_exists(exportBytes) OR exportBytes <= :bytesRoom)');
    values[':bytesRoom'] = MAX_EXPORT_BYTES - change.bytesDelta;
  }
  const referenced = change.referencedPlaces ?? [];
  return {
    Update: {
      Key: environmentKey(change.projectId, change.environment),
      UpdateExpression: `SET secretCount = secretCount + :count, exportBytes = if_not_exists(exportBytes, :zero) + :bytes, secretsRevision = if_not_exists(secretsRevision, :zero) + :one${referenced.length > 0 ? ' ADD referencedPlaces :places' : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues:
        referenced.length > 0 ? Object.assign(values, { ':places': new Set(referenced) }) : values,
    },
  };
};

/** The put of a head, only if it is still at the version read (absent, when none was). */
const headPut = (write: SecretWrite): TableWrite => {
  const { head } = write;
  const item = Object.assign(
    secretHeadKey(head.projectId, head.environment, head.name),
    { entity: 'SecretHead' },
    head,
  );
  if (write.expiresAt !== undefined) Object.assign(item, { [tableSchema.timeToLiveAttribute]: write.expiresAt });
  return {
    Put: {
      Item: item,
      ...(write.readVersion === undefined
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': write.readVersion } }),
    },
  };
};

/** The put of a new, immutable version. */
const versionPut = (write: SecretWrite): TableWrite => {
  const { head, version } = write;
  const key = secretVersionKey(head.projectId, head.environment, head.name, head.life, version.version);
  const item = Object.assign(key, { entity: 'SecretVersion' }, version);
  if (write.expiresAt !== undefined) Object.assign(item, { [tableSchema.timeToLiveAttribute]: write.expiresAt });
  return { Put: { Item: item, ConditionExpression: 'attribute_not_exists(PK)' } };
};

/**
 * Writes changes of an environment's secrets in one transaction: the member checked again, the
 * environment's counts under their limits, each head only if unchanged since it was read, each new
 * version, each event, and a project's first data key. All of them, or none.
 */
export const writeSecrets = async (change: SecretWrites): Promise<SecretWriteOutcome> => {
  const accessValues: Record<string, number | string> = {};
  const accessAsRead = asRead('accessRevision', ':access', change.accessRevision, accessValues);
  const writes: TableWrite[] = [
    {
      ConditionCheck: {
        Key: memberKey(change.projectId, change.userId),
        ConditionExpression: `attribute_exists(PK) AND ${accessAsRead}`,
        ...(Object.keys(accessValues).length > 0 && { ExpressionAttributeValues: accessValues }),
      },
    },
    environmentUpdate(change),
  ];
  const trails = { userId: change.userId, projectId: change.projectId };
  for (const write of change.writes) writes.push(headPut(write), versionPut(write), auditEventPut(write.event, trails));
  for (const event of change.alsoRecorded ?? []) writes.push(auditEventPut(event, trails));
  const closingAt = writes.length;
  if (change.closing !== undefined) writes.push(...closingWrites(change.closing, change.userId));
  if (change.newDataKey !== undefined) {
    writes.push({
      Update: {
        Key: projectKey(change.projectId),
        UpdateExpression: 'SET dataKey = :key',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(dataKey)',
        ExpressionAttributeValues: { ':key': change.newDataKey },
      },
    });
  }
  const answering = writes.map((_write, index) => index);
  const outcome = await transactWrite(writes, answering);
  if (outcome.ok) return 'written';
  if (change.closing !== undefined && outcome.conditionFailed.includes(closingAt)) return 'requestChanged';
  const [memberFailed, environmentFailed] = [0, 1].map((index) => outcome.conditionFailed.includes(index));
  if (memberFailed || environmentFailed) {
    // One read, of what the function may read (a BatchGetItem), to tell why.
    const now = await readSecretContext(change.projectId, change.userId, change.environment, [], false);
    if (!now.member) return 'notMember';
    if (!now.environment) return 'noEnvironment';
    // Made again, its settings or the member's access changed, since the heads were read: judge again.
    const sameEnvironment =
      now.environment.life === change.environmentLife && now.environment.revision === change.environmentRevision;
    if (environmentFailed && sameEnvironment && now.member.accessRevision === change.accessRevision) return 'limit';
  }
  return 'changed';
};

/** Records an event of its own: a read of secrets (the values are answered only after it is written) or a refusal. */
export const recordEvent = (event: AuditEvent, userId: string, projectId: string): Promise<void> =>
  writeItem(auditEventPut(event, { userId, projectId }));

/** A secret's head by its key (`secretHeadKey`), strongly consistent: none once its delete has expired. */
export const getSecretHeadByKey = (key: ItemKey): Promise<SecretHeadRecord | undefined> =>
  getItem<SecretHeadRecord>(key, true);

/** The key and life of every version of every life of a secret, in a secrets partition, strongly consistent. */
export const listVersionsOfAllLives = async (
  partition: string,
  name: string,
): Promise<{ readonly key: ItemKey; readonly life: string | undefined }[]> => {
  const keys = await queryAll<ItemKey>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :versions)',
    ExpressionAttributeValues: { ':pk': partition, ':versions': secretVersionsPrefix(name) },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  return keys.map(({ PK, SK }) => ({ key: { PK, SK }, life: lifeOfSecretVersion(name, SK) }));
};

/** Deletes versions of a secret; no request reads a version of a life that has ended, so none guards them. */
export const deleteSecretVersions = (keys: readonly ItemKey[]): Promise<void> => batchDeleteItems(keys);
