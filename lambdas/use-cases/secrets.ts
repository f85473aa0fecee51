import type { AuditEvent, AuditEventType } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DELETED_SECRET_DAYS, MAX_EXPORT_BYTES, MAX_SECRET_VALUE_BYTES } from '@contract/limits';
import type { NeededAccess } from '@contract/roles';
import type { comparisonStatuses } from '@contract/routes/compare-environments';
import type { DataKey, DataKeys, SealedValue, ValueAddress, ValueCopy } from '@lambdas/crypto/envelope';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { noneMatchHolds, secretsTag } from '@lambdas/domain/entity-tag';
import { accessIn, allows, isProtected } from '@lambdas/domain/environment-access';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import { newLife } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type {
  ClosingChangeRequest,
  EnvironmentRead,
  EnvironmentRecord,
  MemberRecord,
  PairContext,
  ProjectRecord,
  ReferencedItems,
  SecretAuthor,
  SecretContext,
  SecretHeadRecord,
  SecretVersionRecord,
  SecretWrite,
  SecretWriteOutcome,
  SecretWrites,
} from '@lambdas/domain/records';
import {
  MAX_REFERENCE_DEPTH,
  PROBLEM_TEXT,
  placeKey,
  placeOf,
  placesReferenced,
  type ReferenceTarget,
  referenceResolver,
  referencesIn,
  targetKey,
  type ValuePlace,
} from '@lambdas/domain/references';
import { tokenReachesEnvironment } from '@lambdas/domain/token-limits';

/** What the secret use cases read and write: the repository, over DynamoDB (their tests run through HTTP). */
export interface SecretStore {
  readSecretContext(
    projectId: string,
    userId: string,
    environment: string,
    names: readonly string[],
    withProject: boolean,
  ): Promise<SecretContext>;
  getSecretVersion(
    projectId: string,
    environment: string,
    name: string,
    life: string,
    version: number,
  ): Promise<SecretVersionRecord | undefined>;
  listSecretHeads(projectId: string, environment: string, withValues: boolean): Promise<SecretHeadRecord[]>;
  listSecretVersions(
    projectId: string,
    environment: string,
    name: string,
    life: string,
  ): Promise<SecretVersionRecord[]>;
  readPairContext(
    projectId: string,
    userId: string,
    environments: Pair,
    names: readonly string[],
    withProject: boolean,
  ): Promise<PairContext>;
  readHeadValues(
    projectId: string,
    environments: Pair,
    names: readonly string[],
  ): Promise<Pick<PairContext, 'project'> & Record<keyof Pair, ReadonlyMap<string, SecretHeadRecord>>>;
  /** What one round of resolving references reads: memberships and projects, environments, heads with values. */
  readReferenced(
    userId: string,
    wanted: {
      readonly projects: readonly string[];
      readonly environments: readonly ValuePlace[];
      readonly heads: readonly ReferenceTarget[];
    },
  ): Promise<ReferencedItems>;
  writeSecrets(change: SecretWrites): Promise<SecretWriteOutcome>;
  /** Records an event of its own: a read before its values are answered, or a refusal. */
  recordEvent(event: AuditEvent, userId: string, projectId: string): Promise<void>;
}

/** How values are sealed and compared: the envelope and value-digest modules, over the projects' data keys. */
export interface SecretCrypto {
  readonly keys: DataKeys;
  encryptValue(key: Uint8Array, address: ValueAddress, value: string): SealedValue;
  decryptValue(key: Uint8Array, address: ValueAddress, stored: SealedValue): string;
  /** The value's keyed digest in the project of `key`: equal for equal values, made only with the key. */
  digestValue(key: Uint8Array, value: string): Uint8Array;
  /** Whether two stored digests are of the same value. */
  sameDigest(a: Uint8Array, b: Uint8Array): boolean;
}

/** A request about a project's secrets: who asks, from where and when, and in which project. */
export interface InProject {
  readonly caller: Principal;
  readonly origin: RequestOrigin;
  readonly now: Date;
  readonly projectId: string;
}

/** A request about one environment's secrets: a request in a project, and which environment. */
export interface InEnvironment extends InProject {
  readonly environment: string;
}

/** Two environments of a project, as a compare or a promote names them: from one, to the other. */
export interface Pair {
  readonly from: string;
  readonly to: string;
}

/**
 * Makes a promote into a protected environment a change request of `into`: the values to set (opened
 * from the source, their read recorded) and the target versions the caller expects. What it answers is
 * the promote's answer.
 */
export type ProposePromotion<P> = (
  into: InEnvironment,
  set: Record<string, string>,
  expectedVersions: Record<string, number> | undefined,
) => Promise<P>;

/** A secret a promote wrote, at its new version. */
export interface PromotedSecret {
  readonly name: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: SecretAuthor;
  readonly deleted: boolean;
}

/**
 * A conditional read's answer: its entity tag, and what it reads, none when the caller's
 * `If-None-Match` holds the tag (the answer is the one the caller has).
 */
export interface Tagged<T> {
  readonly etag: string;
  readonly data?: T;
}

/** How a secret of one environment compares with the one of its name in another. */
export type ComparisonStatus = (typeof comparisonStatuses)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const DELETED_MS = DELETED_SECRET_DAYS * DAY_MS;
/** Attempts of a write whose reads another writer changed first (without `expectedVersion`, the later one wins). */
const WRITE_ATTEMPTS = 8;
/**
 * The wait before the next attempt: a random time up to a window that doubles from 20 ms to at most
 * 320 ms ("full jitter"), so that writers who collided spread out even when each attempt is slow. With
 * windows that grew by 20 ms, one of ten writers of one secret ran out of attempts (503) on a loaded
 * machine (`secrets.test.ts`, concurrent writers).
 */
export const backoffMs = (attempt: number): number => Math.random() * Math.min(320, 10 * 2 ** attempt);

/** A secret as lists and writes answer it. */
const shown = (head: Pick<SecretHeadRecord, 'name' | 'version' | 'updatedAt' | 'updatedBy'>) => ({
  name: head.name,
  version: head.version,
  updatedAt: head.updatedAt,
  updatedBy: head.updatedBy,
});

/** The bytes a secret takes in its environment's export: `"NAME":"value",` as JSON writes it. */
export const exportBytesOf = (name: string, value: string): number =>
  Buffer.byteLength(`${JSON.stringify(name)}:${JSON.stringify(value)},`, 'utf8');

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Whether a head was written in this life of its environment, not in an earlier one (an environment of
 * that name deleted, then made again). A head written before heads named their environment's life
 * belongs to it when the environment has no life either, or was made before the head was written: a
 * secret left by a deleted environment was deleted before the environment was, and so before any
 * environment of its name was made again.
 */
const inThisLife = (head: SecretHeadRecord, environment: EnvironmentRecord): boolean =>
  head.environmentLife !== undefined
    ? head.environmentLife === environment.life
    : environment.life === undefined || head.updatedAt >= environment.createdAt;

/**
 * A head counts as no head at all, and its name starts a new life, when its delete is past its 30 days
 * or it was written in an earlier life of the environment: a new environment holds none of the secrets
 * the old one left behind.
 */
const alive = (
  head: SecretHeadRecord | undefined,
  environment: EnvironmentRecord,
  now: Date,
): SecretHeadRecord | undefined =>
  head === undefined ||
  !inThisLife(head, environment) ||
  (head.deletedAt !== undefined && now.getTime() - Date.parse(head.deletedAt) >= DELETED_MS)
    ? undefined
    : head;

/** A head of a secret of this environment that is not deleted. */
const live = (
  head: SecretHeadRecord | undefined,
  environment: EnvironmentRecord,
  now: Date,
): head is SecretHeadRecord => head?.deletedAt === undefined && alive(head, environment, now) !== undefined;

/** What a secret request read, once the caller's membership and the environment were found. */
export type FoundContext = SecretContext & { readonly member: MemberRecord; readonly environment: EnvironmentRecord };

/**
 * How a write is made beyond its changes: through a change request (into a protected environment too),
 * as its author's, closing the request in the same transaction (`closing`, given what was written).
 */
export interface WriteOptions {
  readonly viaChangeRequest?: boolean;
  readonly author?: SecretAuthor;
  readonly closing?: (written: readonly Written[]) => ClosingChangeRequest;
}

/** The change request a write applies changed since it was read: read it again. */
export class ChangeRequestMoved extends Error {
  override readonly name = 'ChangeRequestMoved';
}

/** One change a write asks for: a value to set (`restoredFrom`: the version it restores), or a delete. */
export interface Change {
  readonly name: string;
  readonly value?: string;
  readonly expectedVersion?: number;
  readonly restoredFrom?: number;
}

/** A secret a write changed, as the API answers it; `created` when it was not live before. */
export interface Written {
  readonly name: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: SecretAuthor;
  readonly deleted: boolean;
  readonly created: boolean;
}

/** What one attempt of a write read and asks for: the environment's context, the changes, and events to record with them. */
interface Round {
  readonly context: FoundContext;
  readonly changes: readonly Change[];
  readonly alsoRecorded?: readonly AuditEvent[];
}

/** One change as it will be written, with how it moves the environment's counts. */
interface Planned {
  readonly write: SecretWrite;
  readonly written: Written;
  readonly countDelta: number;
  readonly bytesDelta: number;
  /** The other environments its value references (`placeKey`): the export's entity tag covers them. */
  readonly referencedPlaces: readonly string[];
}

/** What the secret use cases work over: their store, and the envelope over the projects' data keys. */
export interface SecretDeps {
  readonly secrets: SecretStore;
  readonly crypto: SecretCrypto;
}

/**
 * The context, once the caller is a member (404 otherwise), the environment exists (404) and the
 * caller's access there allows what the request `needs` (403, recorded as a denial). A write also
 * needs the environment open: a protected one changes only through change requests (409).
 */
export const requireContext = async (
  deps: SecretDeps,
  at: InEnvironment,
  names: readonly string[],
  withProject: boolean,
  needs: NeededAccess,
  viaChangeRequest = false,
): Promise<FoundContext> => {
  const context = await deps.secrets.readSecretContext(
    at.projectId,
    at.caller.userId,
    at.environment,
    names,
    withProject,
  );
  const { member, environment } = context;
  if (!member) throw new NotFoundError(ErrorText.projectNotFound);
  if (!environment) throw new NotFoundError(ErrorText.environmentNotFound);
  if (!allowed(member, environment, needs)) await refuseAccess(deps, at, environment, needs);
  if (needs === 'write' && !viaChangeRequest && isProtected(environment)) throw protectedRefusal(at);
  return Object.assign(context, { member, environment });
};

/** Whether a member's access in an environment allows what a request `needs` there. */
const allowed = (member: MemberRecord, environment: EnvironmentRecord, needs: NeededAccess): boolean =>
  allows(accessIn(member, environment), needs);

/**
 * Refuses the caller below what a request `needs` in an environment: 403, recorded as a denial. Called
 * only on a refusal, so that an allowed request takes no extra promise (each costs the Tracer's async
 * hook on every request).
 */
const refuseAccess = async (
  deps: SecretDeps,
  at: InProject,
  environment: EnvironmentRecord,
  needs: NeededAccess,
): Promise<never> => {
  const details = { environment: environment.name, needed: needs };
  const event = auditEvent('access.denied', at.origin, at.now, { projectId: at.projectId }, details);
  await deps.secrets.recordEvent(event, at.caller.userId, at.projectId);
  throw new ForbiddenError(ErrorText.environmentAccess);
};

/** What a direct write into a protected environment answers: 409, naming the change-request route. */
const protectedRefusal = (at: InEnvironment) =>
  new ConflictError(ErrorText.environmentProtected, [
    {
      path: 'environment',
      message: `${at.environment} is protected: propose the change with POST /api/v1/projects/${at.projectId}/environments/${at.environment}/change-requests`,
    },
  ]);

/**
 * The context of a request about two environments, once the caller is a member (404 otherwise), both
 * exist (404) and the caller's access in each allows what the request `needs` there (403, recorded as
 * a denial; `from` judged first).
 */
const requirePair = async (
  deps: SecretDeps,
  at: InProject,
  pair: Pair,
  names: readonly string[],
  withProject: boolean,
  needs: Record<keyof Pair, NeededAccess>,
) => {
  const context = await deps.secrets.readPairContext(at.projectId, at.caller.userId, pair, names, withProject);
  const { member, from, to } = context;
  if (!member) throw new NotFoundError(ErrorText.projectNotFound);
  if (!from.environment || !to.environment) throw new NotFoundError(ErrorText.environmentNotFound);
  if (!allowed(member, from.environment, needs.from)) await refuseAccess(deps, at, from.environment, needs.from);
  if (!allowed(member, to.environment, needs.to)) await refuseAccess(deps, at, to.environment, needs.to);
  type Found = EnvironmentRead & { readonly environment: EnvironmentRecord };
  return Object.assign(context, { member, from: from as Found, to: to as Found });
};

/** A value's address: bound to its ciphertext, so that it opens nowhere else (no other copy, life or version). */
const addressOf = (at: InEnvironment, name: string, life: string, version: number, copy: ValueCopy): ValueAddress => ({
  projectId: at.projectId,
  environment: at.environment,
  name,
  life,
  version,
  copy,
});

/**
 * The project's stored data key, unwrapped (from the function's cache, or one unwrap): the promise of
 * `dataKeyFor` itself, so that reading a value takes no promise more than the key's own.
 */
const storedKey = (deps: SecretDeps, at: InProject, context: Pick<SecretContext, 'project'>): Promise<DataKey> => {
  const wrapped = context.project?.dataKey;
  if (wrapped === undefined) throw new Error(`Project ${at.projectId} holds a value but no data key`);
  return deps.crypto.keys.dataKeyFor(at.projectId, wrapped);
};

/**
 * A stored value, opened under the project's data key as the copy it is read as (the head's, or a
 * version's own) of that version of the head's life: before any read is recorded, so a value that does
 * not open there (a `DecryptionError`: 500, the item in the log) leaves no `secret.read` behind.
 */
const open = (
  deps: SecretDeps,
  key: Uint8Array,
  at: InEnvironment,
  address: { name: string; life: string; copy: ValueCopy },
  stored: Pick<SecretVersionRecord, 'version' | 'ciphertext' | 'binding'>,
) => {
  const { name, life, copy } = address;
  const { version, ciphertext } = stored;
  if (ciphertext === undefined) throw new Error(`Version ${version} of ${name} in ${at.projectId} holds no value`);
  return deps.crypto.decryptValue(key, addressOf(at, name, life, version, copy), {
    ciphertext,
    binding: stored.binding,
  });
};

/** Records a read before its values are answered: no value leaves unless its read is in the trail. */
const recordRead = async (deps: SecretDeps, at: InEnvironment, read: readonly { name: string; version: number }[]) => {
  if (read.length === 0) return;
  const details = { environment: at.environment, secrets: [...read] };
  const event = auditEvent('secret.read', at.origin, at.now, { projectId: at.projectId }, details);
  await deps.secrets.recordEvent(event, at.caller.userId, at.projectId);
};

/**
 * The values of `read` (secrets of the caller's environment, as stored; `current`: the head's value,
 * so that a reference back to it is a cycle) with their references resolved, and the reads to record,
 * by environment (`placeKey`): the caller's own, then each referenced one. Resolution reads by levels,
 * one BatchGetItem a level, at most `MAX_REFERENCE_DEPTH` of them: the referenced heads, and the
 * caller's membership, the project and the environment of each project and environment met for the
 * first time. A referenced secret is read only where the caller holds `read` and the token's limits
 * reach; a reference that cannot be resolved (missing or not readable alike, a cycle, too deep, too
 * long) refuses the whole read with 409, naming each secret and its reference, never a value.
 * `whole`: `read` is every live secret of the environment, so a name it lacks is missing there.
 */
const resolveReferences = async (
  deps: SecretDeps,
  at: InEnvironment,
  context: Pick<FoundContext, 'member' | 'environment' | 'project'>,
  read: readonly { name: string; version: number; value: string; current: boolean }[],
  whole: boolean,
): Promise<{ values: Map<string, string>; reads: Map<string, { name: string; version: number }[]> }> => {
  const home: ValuePlace = { projectId: at.projectId, environment: at.environment };
  const homeKey = placeKey(home);
  const own = read.map(({ name, version }) => ({ name, version }));
  const reads = new Map([[homeKey, own]]);
  const values = new Map(read.map(({ name, value }) => [name, value]));
  const references = read.flatMap(({ value }) => referencesIn(value, home));
  if (references.length === 0) return { values, reads };

  /** Each target met, by `targetKey`: its stored value, or `undefined` when it is missing or not readable. */
  const stored = new Map<string, string | undefined>();
  for (const secret of read) {
    if (secret.current) stored.set(targetKey(Object.assign({ name: secret.name }, home)), secret.value);
  }
  const projects = new Map<string, { member: MemberRecord | undefined; project: ProjectRecord | undefined }>([
    [at.projectId, { member: context.member, project: context.project }],
  ]);
  /** Each environment met, by `placeKey`: its record when the caller may read it there, else `null`. */
  const readable = new Map<string, EnvironmentRecord | null>([[homeKey, context.environment]]);
  const keys = new Map<string, Uint8Array>();
  const keyOf = async (projectId: string) => {
    const found =
      keys.get(projectId) ??
      (await storedKey(deps, Object.assign({}, at, { projectId }), { project: projects.get(projectId)?.project }))
        .plaintext;
    keys.set(projectId, found);
    return found;
  };

  let level = references.map((part) => part.target);
  for (let depth = 1; depth <= MAX_REFERENCE_DEPTH && level.length > 0; depth += 1) {
    const wanted = new Map<string, ReferenceTarget>();
    for (const target of level) {
      const key = targetKey(target);
      if (stored.has(key) || wanted.has(key)) continue;
      const place = placeKey(target);
      if (
        readable.get(place) === null ||
        (whole && place === homeKey) ||
        !tokenReachesEnvironment(at.caller.projects, target.projectId, target.environment)
      ) {
        stored.set(key, undefined);
      } else {
        wanted.set(key, target);
      }
    }
    if (wanted.size === 0) break;
    const targets = [...wanted.values()];
    const newProjects = [...new Set(targets.map((target) => target.projectId))].filter((id) => !projects.has(id));
    const newPlaces = [...new Set(targets.map(placeKey))].filter((key) => !readable.has(key)).map(placeOf);
    const items = await deps.secrets.readReferenced(at.caller.userId, {
      projects: newProjects,
      environments: newPlaces,
      heads: targets,
    });
    for (const id of newProjects) projects.set(id, { member: items.members.get(id), project: items.projects.get(id) });
    for (const place of newPlaces) {
      const key = placeKey(place);
      const member = projects.get(place.projectId)?.member;
      const environment = items.environments.get(key);
      const allowed =
        member !== undefined && environment !== undefined && allows(accessIn(member, environment), 'read');
      readable.set(key, allowed ? environment : null);
    }
    level = [];
    for (const [key, target] of wanted) {
      const environment = readable.get(placeKey(target));
      const head = items.heads.get(key);
      if (!environment || !live(head, environment, at.now)) {
        stored.set(key, undefined);
        continue;
      }
      const there: InEnvironment = Object.assign({}, at, {
        projectId: target.projectId,
        environment: target.environment,
      });
      const value = open(
        deps,
        await keyOf(target.projectId),
        there,
        { name: target.name, life: head.life, copy: 'head' },
        head,
      );
      stored.set(key, value);
      const place = placeKey(target);
      const list = reads.get(place) ?? [];
      // Every version whose value is disclosed is recorded: an earlier version's reference back to its own
      // secret discloses the current one too (a current value already read is in `stored`, never read twice).
      list.push({ name: target.name, version: head.version });
      reads.set(place, list);
      level.push(...referencesIn(value, target).map((part) => part.target));
    }
  }

  const { resolve } = referenceResolver(stored, MAX_SECRET_VALUE_BYTES);
  const failures: { path: string; message: string }[] = [];
  for (const secret of read) {
    const resolved = resolve(secret.value, home, secret.current ? secret.name : undefined);
    if ('failure' in resolved) {
      const { reference, problem } = resolved.failure;
      failures.push({ path: secret.name, message: `${reference} ${PROBLEM_TEXT[problem]}` });
    } else {
      values.set(secret.name, resolved.value);
    }
  }
  if (failures.length > 0) throw new ConflictError(ErrorText.referenceUnresolved, failures);
  return { values, reads };
};

/**
 * Refuses an export that its resolved references make longer than an environment's export may be
 * (409, naming the secret at which it passes the limit): the answer must stay under what a function
 * may answer.
 */
const requireExportRoom = (values: ReadonlyMap<string, string>) => {
  let bytes = 0;
  for (const [name, value] of values) {
    bytes += exportBytesOf(name, value);
    if (bytes > MAX_EXPORT_BYTES) {
      throw new ConflictError(ErrorText.referenceUnresolved, [
        { path: name, message: `its references make the export longer than ${MAX_EXPORT_BYTES} bytes` },
      ]);
    }
  }
};

/** Records the reads of a resolution, one `secret.read` event per environment, each in its project's trail. */
const recordReads = async (
  deps: SecretDeps,
  at: InEnvironment,
  reads: ReadonlyMap<string, readonly { name: string; version: number }[]>,
) => {
  await Promise.all(
    [...reads].map(([key, read]) => {
      return recordRead(deps, Object.assign({}, at, placeOf(key)), [...read].sort(byName));
    }),
  );
};

/**
 * The live secrets of an environment, by name, without values; or, `deleted`, those deleted within
 * 30 days (what a restore can bring back), each as its delete left it; with their entity tag. The
 * heads are read after the environment, so that no answer is older than the revision its tag names;
 * a live list whose tag `ifNoneMatch` holds reads none. The deleted list's tag counts what it lists
 * (it changes as deletes expire, without a write), so it is read first.
 */
export const listSecrets = async (
  deps: SecretDeps,
  at: InEnvironment,
  deleted = false,
  ifNoneMatch?: string,
): Promise<Tagged<ReturnType<typeof shown>[]>> => {
  const { environment } = await requireContext(deps, at, [], false, 'read');
  if (!deleted) {
    const etag = secretsTag('list', environment);
    if (noneMatchHolds(ifNoneMatch, etag)) return { etag };
    const heads = await deps.secrets.listSecretHeads(at.projectId, at.environment, false);
    return {
      etag,
      data: heads
        .filter((head) => live(head, environment, at.now))
        .map(shown)
        .sort(byName),
    };
  }
  const heads = await deps.secrets.listSecretHeads(at.projectId, at.environment, false);
  const listed = heads
    .filter((head) => head.deletedAt !== undefined && alive(head, environment, at.now) !== undefined)
    .map(shown)
    .sort(byName);
  const etag = secretsTag('deleted', environment, listed.length);
  return noneMatchHolds(ifNoneMatch, etag) ? { etag } : { etag, data: listed };
};

/**
 * One live secret with its value, current or of an earlier `version`, its references resolved (`raw`:
 * as stored): a recorded read, of each referenced secret too.
 */
export const getSecret = async (
  deps: SecretDeps,
  at: InEnvironment,
  name: string,
  version: number | undefined,
  raw = false,
) => {
  const context = await requireContext(deps, at, [name], true, 'read');
  const head = context.heads.get(name);
  if (!live(head, context.environment, at.now)) throw new NotFoundError(ErrorText.secretNotFound);
  let read: Pick<SecretVersionRecord, 'version' | 'updatedAt' | 'updatedBy' | 'ciphertext' | 'binding'> = head;
  let copy: ValueCopy = 'head';
  if (version !== undefined && version !== head.version) {
    const stored =
      version < head.version
        ? await deps.secrets.getSecretVersion(at.projectId, at.environment, name, head.life, version)
        : undefined;
    if (!stored || stored.deleted) throw new NotFoundError(ErrorText.secretVersionNotFound);
    read = stored;
    copy = 'version';
  }
  const stored = open(deps, (await storedKey(deps, at, context)).plaintext, at, { name, life: head.life, copy }, read);
  const asRead = [{ name, version: read.version, value: stored, current: copy === 'head' }];
  const { values, reads } = raw
    ? { values: new Map([[name, stored]]), reads: new Map([[placeKey(at), [{ name, version: read.version }]]]) }
    : await resolveReferences(deps, at, context, asRead, false);
  await recordReads(deps, at, reads);
  const value = values.get(name) as string;
  const references = new Map(
    referencesIn(stored, at).map(({ reference, target }) => [reference, Object.assign({ reference }, target)]),
  );
  return {
    name,
    value,
    version: read.version,
    updatedAt: read.updatedAt,
    updatedBy: read.updatedBy,
    references: [...references.values()],
  };
};

/**
 * What an export's entity tag covers beyond its own environment: each other environment its values
 * have ever referenced (`referencedPlaces`), and theirs in turn, `MAX_REFERENCE_DEPTH` levels deep,
 * each as read now (`undefined`: there is none), by `placeKey`. One BatchGetItem of environments a
 * level; none when the environment's values never referenced another.
 */
const referencedEnvironments = async (deps: SecretDeps, at: InEnvironment, environment: EnvironmentRecord) => {
  const own = placeKey(at);
  const seen = new Map<string, EnvironmentRecord | undefined>();
  let level = [...(environment.referencedPlaces ?? [])].filter((key) => key !== own);
  for (let depth = 1; depth <= MAX_REFERENCE_DEPTH && level.length > 0; depth += 1) {
    const read = await deps.secrets.readReferenced(at.caller.userId, {
      projects: [],
      environments: level.map(placeOf),
      heads: [],
    });
    const next = new Set<string>();
    for (const key of level) {
      const found = read.environments.get(key);
      seen.set(key, found);
      for (const further of found?.referencedPlaces ?? []) if (further !== own && !seen.has(further)) next.add(further);
    }
    level = [...next].filter((key) => !seen.has(key));
  }
  return seen;
};

/**
 * Every live secret's value, `{NAME: value}`, its references resolved (`raw`: as stored): one recorded
 * read of them all, and one of the secrets they reference in each other environment, with their entity
 * tag, which covers the environments its values reference (`referencedEnvironments`). The heads are
 * read after the environments (no export is older than its tag); when `ifNoneMatch` holds the tag,
 * none is read, no value opened and no read recorded.
 */
export const exportSecrets = async (
  deps: SecretDeps,
  at: InEnvironment,
  ifNoneMatch?: string,
  raw = false,
): Promise<Tagged<Record<string, string>>> => {
  const context = await requireContext(deps, at, [], true, 'read');
  const referenced = raw ? new Map() : await referencedEnvironments(deps, at, context.environment);
  const etag = secretsTag(raw ? 'raw-export' : 'export', context.environment, undefined, referenced);
  if (noneMatchHolds(ifNoneMatch, etag)) return { etag };
  const heads = await deps.secrets.listSecretHeads(at.projectId, at.environment, true);
  const listed = heads.filter((head) => live(head, context.environment, at.now)).sort(byName);
  if (listed.length === 0) return { etag, data: {} };
  const key = (await storedKey(deps, at, context)).plaintext;
  const read = listed.map((head) => ({
    name: head.name,
    version: head.version,
    value: open(deps, key, at, { name: head.name, life: head.life, copy: 'head' }, head),
    current: true,
  }));
  const { values, reads } = raw
    ? {
        values: new Map(read.map(({ name, value }) => [name, value])),
        reads: new Map([[placeKey(at), read.map(({ name, version }) => ({ name, version }))]]),
      }
    : await resolveReferences(deps, at, context, read, true);
  if (!raw) requireExportRoom(values);
  await recordReads(deps, at, reads);
  // fromEntries defines each name as the object's own property, whatever the name.
  return { etag, data: Object.fromEntries(values) as Record<string, string> };
};

/** A secret's versions, newest first, also while it is deleted (for 30 days). */
export const listVersions = async (deps: SecretDeps, at: InEnvironment, name: string) => {
  const context = await requireContext(deps, at, [name], false, 'read');
  const head = alive(context.heads.get(name), context.environment, at.now);
  if (!head) throw new NotFoundError(ErrorText.secretNotFound);
  const versions = await deps.secrets.listSecretVersions(at.projectId, at.environment, name, head.life);
  return versions.map(({ version, updatedAt, updatedBy, deleted }) => ({ version, updatedAt, updatedBy, deleted }));
};

/**
 * The head a change is judged against, as read: none when it is past its 30 days or of an earlier life
 * of the environment; `liveHead` too when it is not deleted. 409 when the change expects another version.
 */
const judgedHead = (at: InEnvironment, context: FoundContext, change: Change) => {
  const stored = context.heads.get(change.name);
  const head = alive(stored, context.environment, at.now);
  const liveHead = live(head, context.environment, at.now) ? head : undefined;
  if (change.expectedVersion !== undefined && change.expectedVersion !== (liveHead?.version ?? 0)) {
    throw new ConflictError(ErrorText.secretConflict);
  }
  return { stored, head, liveHead };
};

/**
 * The value a restore writes again: the earlier version's, opened (after the change's expected version
 * is judged: 409; then 404 when the secret or that version is not there, or the version is a delete's).
 */
const restoredValue = async (
  deps: SecretDeps,
  at: InEnvironment,
  context: FoundContext,
  key: DataKey | undefined,
  change: Change & { readonly restoredFrom: number },
): Promise<string> => {
  const { head } = judgedHead(at, context, change);
  if (!head) throw new NotFoundError(ErrorText.secretNotFound);
  const { name, restoredFrom } = change;
  const source = await deps.secrets.getSecretVersion(at.projectId, at.environment, name, head.life, restoredFrom);
  if (!source || source.deleted) throw new NotFoundError(ErrorText.secretVersionNotFound);
  return open(deps, (key as DataKey).plaintext, at, { name, life: head.life, copy: 'version' }, source);
};

/**
 * What one change writes, judged against its head as read: its new head and version, its event and
 * how it moves the environment's counts; a refusal (409 at another version than expected, 404 for
 * nothing to delete) is thrown. `value`: the value to set (a restore's, read by `restoredValue`), none
 * for a delete.
 */
const plan = (
  deps: SecretDeps,
  at: InEnvironment,
  context: FoundContext,
  key: DataKey | undefined,
  change: Change,
  value: string | undefined,
  author: SecretAuthor | undefined,
) => {
  const { stored, head, liveHead } = judgedHead(at, context, change);
  const wasLive = liveHead !== undefined;
  const version = (head?.version ?? 0) + 1;
  const life = head?.life ?? newLife();
  const updatedAt = toIso(at.now);
  const updatedBy: SecretAuthor = author ?? { userId: at.caller.userId, email: at.caller.email ?? null };
  if (value === undefined && !wasLive) throw new NotFoundError(ErrorText.secretNotFound);

  const fields: Pick<SecretHeadRecord, 'projectId' | 'environment' | 'name' | 'life' | 'environmentLife' | 'version'> =
    { projectId: at.projectId, environment: at.environment, name: change.name, life, version };
  if (context.environment.life !== undefined) Object.assign(fields, { environmentLife: context.environment.life });
  const oldBytes = liveHead?.exportBytes ?? 0;
  const deleted = value === undefined;
  // The value is sealed twice, as the head's copy and as the version's own, each bound to its copy:
  // a version's ciphertext written into the head (a rollback) opens as no head's, nor the other way.
  const seal = (plain: string, copy: ValueCopy) =>
    deps.crypto.encryptValue((key as DataKey).plaintext, addressOf(at, change.name, life, version, copy), plain);
  // The head carries the value's digest, so that a compare finds it equal to another without opening
  // it; a version, which nothing compares, carries none (nor tells which earlier values were equal).
  const sealBoth = (plain: string) => ({
    head: { ...seal(plain, 'head'), valueDigest: deps.crypto.digestValue((key as DataKey).plaintext, plain) },
    version: seal(plain, 'version'),
  });
  const sealed = value === undefined ? undefined : sealBoth(value);
  const exportBytes = value === undefined ? 0 : exportBytesOf(change.name, value);
  const next: SecretHeadRecord = Object.assign(
    fields,
    { updatedAt, updatedBy, exportBytes },
    sealed === undefined ? { deletedAt: updatedAt } : sealed.head,
  );
  const type: AuditEventType = deleted
    ? 'secret.deleted'
    : change.restoredFrom !== undefined
      ? 'secret.restored'
      : wasLive
        ? 'secret.updated'
        : 'secret.created';
  const details = { environment: at.environment, secrets: [{ name: change.name, version }] };
  const write: SecretWrite = {
    head: next,
    readVersion: stored?.version,
    version: Object.assign({ name: change.name, version, updatedAt, updatedBy, deleted }, sealed?.version),
    event: auditEvent(type, at.origin, at.now, { projectId: at.projectId }, details),
    // A delete's head and its version expire with its 30 days; the earlier versions go with the head.
    ...(deleted && { expiresAt: Math.ceil((at.now.getTime() + DELETED_MS) / 1000) }),
  };
  const written: Written = {
    name: change.name,
    version,
    updatedAt,
    updatedBy,
    deleted,
    created: !deleted && !wasLive,
  };
  return {
    write,
    written,
    countDelta: (deleted ? 0 : 1) - (wasLive ? 1 : 0),
    bytesDelta: exportBytes - oldBytes,
    referencedPlaces: value === undefined ? [] : placesReferenced(value, at),
  } satisfies Planned;
};

/**
 * Writes, as one transaction, the changes of one environment that `round` reads and judges, reading
 * again and retrying while another writer changes what was read first: each change is judged against
 * the heads as they are (a stated `expectedVersion` that no longer holds is a 409, never a retry).
 * `needsKey`: some change seals or opens a value, so the project's data key is read.
 */
const commit = async (
  deps: SecretDeps,
  at: InEnvironment,
  needsKey: boolean,
  round: () => Promise<Round>,
  options: WriteOptions = {},
): Promise<Written[]> => {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
    const { context, changes, alsoRecorded } = await round();
    const key = needsKey ? await deps.crypto.keys.dataKeyFor(at.projectId, context.project?.dataKey) : undefined;
    const planned: Planned[] = [];
    for (const change of changes) {
      // Only a restore reads before it plans: every other change plans without a promise of its own.
      const { restoredFrom } = change;
      const value =
        restoredFrom === undefined
          ? change.value
          : await restoredValue(deps, at, context, key, { ...change, restoredFrom });
      planned.push(plan(deps, at, context, key, change, value, options.author));
    }
    const written = planned.map((change) => change.written).sort(byName);
    const referencedPlaces = [...new Set(planned.flatMap((change) => change.referencedPlaces))];
    const outcome = await deps.secrets.writeSecrets({
      projectId: at.projectId,
      environment: at.environment,
      userId: at.caller.userId,
      accessRevision: context.member.accessRevision,
      writes: planned.map((change) => change.write),
      environmentLife: context.environment.life,
      environmentRevision: context.environment.revision,
      countDelta: planned.reduce((sum, change) => sum + change.countDelta, 0),
      bytesDelta: planned.reduce((sum, change) => sum + change.bytesDelta, 0),
      ...(key?.created && { newDataKey: key.wrapped }),
      ...(referencedPlaces.length > 0 && { referencedPlaces }),
      ...(options.closing && { closing: options.closing(written) }),
      ...(alsoRecorded && { alsoRecorded }),
    });
    if (outcome === 'written') return written;
    if (outcome === 'requestChanged') throw new ChangeRequestMoved();
    if (outcome === 'notMember') throw new NotFoundError(ErrorText.projectNotFound);
    if (outcome === 'noEnvironment') throw new NotFoundError(ErrorText.environmentNotFound);
    if (outcome === 'limit') throw new ConflictError(ErrorText.secretLimit);
    await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
  }
  throw new ServiceUnavailableError();
};

/** Writes `changes` of one environment as one transaction (`commit`), judged against the heads as they are. */
export const write = (
  deps: SecretDeps,
  at: InEnvironment,
  changes: readonly Change[],
  options: WriteOptions = {},
): Promise<Written[]> => {
  const names = changes.map((change) => change.name);
  // Only a change that seals or opens a value needs the project's data key: a delete reads no project.
  const needsKey = changes.some((change) => change.value !== undefined || change.restoredFrom !== undefined);
  const round = async () => ({
    context: await requireContext(deps, at, names, needsKey, 'write', options.viaChangeRequest),
    changes,
  });
  return commit(deps, at, needsKey, round, options);
};

/**
 * How each secret live in either environment compares with the one of its name in the other, by
 * name: by their values' digests, never by values answered, and no read is recorded. A pair of which
 * one head was written before digests is read again with its values, and the value without a digest
 * is opened and digested here: the answer is exact for every secret, and no value leaves the function.
 */
export const compareEnvironments = async (deps: SecretDeps, at: InProject, pair: Pair) => {
  const [context, fromHeads, toHeads] = await Promise.all([
    requirePair(deps, at, pair, [], false, { from: 'read', to: 'read' }),
    deps.secrets.listSecretHeads(at.projectId, pair.from, false),
    deps.secrets.listSecretHeads(at.projectId, pair.to, false),
  ]);
  const liveIn = (heads: readonly SecretHeadRecord[], environment: EnvironmentRecord) =>
    new Map(heads.filter((head) => live(head, environment, at.now)).map((head) => [head.name, head]));
  const from = liveIn(fromHeads, context.from.environment);
  const to = liveIn(toHeads, context.to.environment);
  const undigested = [...from.values()]
    .filter((head) => {
      const other = to.get(head.name);
      return other !== undefined && (head.valueDigest === undefined || other.valueDigest === undefined);
    })
    .map((head) => head.name);
  /** The digests of values opened here, of heads written before digests. */
  const opened = new Map<SecretHeadRecord, Uint8Array>();
  if (undigested.length > 0) {
    // Read again, with values: what the two names hold now is what is compared.
    const stored = await deps.secrets.readHeadValues(at.projectId, pair, undigested);
    const key = (await storedKey(deps, at, stored)).plaintext;
    for (const [side, environment, heads] of [
      ['from', context.from.environment, from],
      ['to', context.to.environment, to],
    ] as const) {
      const within: InEnvironment = { ...at, environment: environment.name };
      for (const name of undigested) {
        const head = stored[side].get(name);
        if (!live(head, environment, at.now)) {
          heads.delete(name);
          continue;
        }
        heads.set(name, head);
        if (head.valueDigest === undefined) {
          opened.set(
            head,
            deps.crypto.digestValue(key, open(deps, key, within, { name, life: head.life, copy: 'head' }, head)),
          );
        }
      }
    }
  }
  const digestOf = (head: SecretHeadRecord) => head.valueDigest ?? (opened.get(head) as Uint8Array);
  const names = [...new Set([...from.keys(), ...to.keys()])].sort();
  return names.map((name) => {
    const [inFrom, inTo] = [from.get(name), to.get(name)];
    const status: ComparisonStatus =
      inTo === undefined
        ? 'only-from'
        : inFrom === undefined
          ? 'only-to'
          : deps.crypto.sameDigest(digestOf(inFrom), digestOf(inTo))
            ? 'same'
            : 'different';
    return { name, status, fromVersion: inFrom?.version ?? null, toVersion: inTo?.version ?? null };
  });
};

/**
 * Copies the current values of `names` from one environment into another, as one change: all of them
 * or none, each written at the version read in `to` (with `expectedVersions`, only at those: else
 * 409). The reads of the sources are recorded (`secret.read` in `from`) in the transaction of the
 * writes and their events: values that move inside the service are read exactly when they are written.
 * Into a protected environment, nothing is written: the values are handed to `propose`, which makes
 * them a change request, once their read is recorded (without `propose`, 409 as any direct write).
 */
export const promoteSecrets = async <P>(
  deps: SecretDeps,
  at: InProject,
  input: Pair & { readonly names: readonly string[]; readonly expectedVersions?: Record<string, number> },
  propose?: ProposePromotion<P>,
): Promise<{ readonly written: PromotedSecret[] } | { readonly proposed: P }> => {
  const into: InEnvironment = { ...at, environment: input.to };
  const source: InEnvironment = { ...at, environment: input.from };
  const expected = new Map(Object.entries(input.expectedVersions ?? {}));
  const judged = async () => {
    const context = await requirePair(deps, at, input, input.names, true, { from: 'read', to: 'write' });
    const sources = input.names.map((name) => {
      const head = context.from.heads.get(name);
      if (!live(head, context.from.environment, at.now)) throw new NotFoundError(ErrorText.secretNotFound);
      return head;
    });
    const read = sources.map(({ name, version }) => ({ name, version })).sort(byName);
    const readEvent = auditEvent(
      'secret.read',
      at.origin,
      at.now,
      { projectId: at.projectId },
      {
        environment: input.from,
        secrets: read,
      },
    );
    const opened = async () => {
      const key = (await storedKey(deps, at, context)).plaintext;
      return sources.map((head) => ({
        name: head.name,
        value: open(deps, key, source, { name: head.name, life: head.life, copy: 'head' }, head),
      }));
    };
    return { context, opened, readEvent };
  };
  // The first round's reads decide between a write and a proposal; a retried write reads again.
  let first: Awaited<ReturnType<typeof judged>> | undefined = await judged();
  if (isProtected(first.context.to.environment)) {
    if (propose === undefined) throw protectedRefusal(into);
    const values = await first.opened();
    await deps.secrets.recordEvent(first.readEvent, at.caller.userId, at.projectId);
    const set = Object.fromEntries(values.map(({ name, value }) => [name, value]));
    return { proposed: await propose(into, set, input.expectedVersions) };
  }
  const written = await commit(deps, into, true, async () => {
    const { context, opened, readEvent } = first ?? (await judged());
    first = undefined;
    if (isProtected(context.to.environment)) throw protectedRefusal(into);
    const changes = (await opened()).map(({ name, value }) => ({
      name,
      value,
      expectedVersion: expected.get(name),
    }));
    const { member, project, to } = context;
    return {
      context: { member, project, environment: to.environment, heads: to.heads },
      changes,
      alsoRecorded: [readEvent],
    };
  });
  return {
    written: written.map(({ name, version, updatedAt, updatedBy, deleted }) => ({
      name,
      version,
      updatedAt,
      updatedBy,
      deleted,
    })),
  };
};

/** The one secret a write of one change wrote. */
const writeOne = async (deps: SecretDeps, at: InEnvironment, change: Change) => {
  const [written] = await write(deps, at, [change]);
  if (!written) throw new Error('A write of one secret answered none');
  return written;
};

/** Records an event of the caller's about this environment, before what it records is answered. */
export const record = (deps: SecretDeps, event: AuditEvent, at: InEnvironment) =>
  deps.secrets.recordEvent(event, at.caller.userId, at.projectId);

/** Writes a value as the secret's next version; `created` when the secret was not live before. */
export const putSecret = async (
  deps: SecretDeps,
  at: InEnvironment,
  name: string,
  input: { value: string; expectedVersion?: number },
) => {
  const written = await writeOne(deps, at, { name, value: input.value, expectedVersion: input.expectedVersion });
  return { secret: shown(written), created: written.created };
};

/** Deletes a live secret, keeping its versions restorable for 30 days. */
export const deleteSecret = async (deps: SecretDeps, at: InEnvironment, name: string): Promise<void> => {
  await writeOne(deps, at, { name });
};

/** Writes an earlier version's value again as the next version, undeleting the secret. */
export const restoreSecret = async (deps: SecretDeps, at: InEnvironment, name: string, version: number) =>
  shown(await writeOne(deps, at, { name, restoredFrom: version }));

/** Sets and deletes several secrets of the environment: all of them, or none. */
export const changeSecrets = async (
  deps: SecretDeps,
  at: InEnvironment,
  input: { set?: Record<string, string>; delete?: string[]; expectedVersions?: Record<string, number> },
) => {
  const expected = new Map(Object.entries(input.expectedVersions ?? {}));
  const changes: Change[] = [
    ...Object.entries(input.set ?? {}).map(([name, value]) => ({
      name,
      value,
      expectedVersion: expected.get(name),
    })),
    ...(input.delete ?? []).map((name) => ({ name, expectedVersion: expected.get(name) })),
  ];
  const written = await write(deps, at, changes);
  return written.map(({ name, version, updatedAt, updatedBy, deleted }) => ({
    name,
    version,
    updatedAt,
    updatedBy,
    deleted,
  }));
};
