import type { AuditEvent, AuditEventType } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DELETED_SECRET_DAYS } from '@contract/limits';
import type { DataKey, DataKeys, ValueAddress } from '@lambdas/crypto/envelope';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type {
  EnvironmentRecord,
  SecretAuthor,
  SecretContext,
  SecretHeadRecord,
  SecretVersionRecord,
  SecretWrite,
  SecretWriteOutcome,
  SecretWrites,
} from '@lambdas/domain/records';
import { randomBase62 } from '@lambdas/domain/token-format';

/** What the secret use cases read and write (the repository; in-memory fakes in unit tests). */
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
  writeSecrets(change: SecretWrites): Promise<SecretWriteOutcome>;
  recordSecretRead(event: AuditEvent, userId: string, projectId: string): Promise<void>;
}

/** How values are sealed: the envelope module, over the projects' data keys. */
export interface SecretCrypto {
  readonly keys: DataKeys;
  encryptValue(key: Uint8Array, address: ValueAddress, value: string): Uint8Array;
  decryptValue(key: Uint8Array, address: ValueAddress, sealed: Uint8Array): string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DELETED_MS = DELETED_SECRET_DAYS * DAY_MS;
/** Attempts of a write whose reads another writer changed first (without `expectedVersion`, the later one wins). */
const WRITE_ATTEMPTS = 8;

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

/** One change a write asks for: a value to set (`restoredFrom`: the version it restores), or a delete. */
interface Change {
  readonly name: string;
  readonly value?: string;
  readonly expectedVersion?: number;
  readonly restoredFrom?: number;
}

/** The secret use cases over their store and the envelope. */
export const secretUseCases = ({
  secrets,
  crypto,
}: {
  readonly secrets: SecretStore;
  readonly crypto: SecretCrypto;
}) => {
  /** A head whose delete is past its 30 days counts as no head at all. */
  const alive = (head: SecretHeadRecord | undefined, now: Date): SecretHeadRecord | undefined =>
    head?.deletedAt !== undefined && now.getTime() - Date.parse(head.deletedAt) >= DELETED_MS ? undefined : head;
  const live = (head: SecretHeadRecord | undefined, now: Date) =>
    head !== undefined && head.deletedAt === undefined && alive(head, now) !== undefined;

  /** The context, once the caller is a member and the environment exists (404 otherwise). */
  const requireContext = async (
    caller: Principal,
    projectId: string,
    environment: string,
    names: readonly string[],
    withProject: boolean,
  ): Promise<SecretContext & { environment: EnvironmentRecord }> => {
    const context = await secrets.readSecretContext(projectId, caller.userId, environment, names, withProject);
    if (!context.member) throw new NotFoundError(ErrorText.projectNotFound);
    if (!context.environment) throw new NotFoundError(ErrorText.environmentNotFound);
    return Object.assign({}, context, { environment: context.environment });
  };

  /** The project's data key from its stored wrapped form, or a new one to store with this write. */
  const keyOf = (context: SecretContext, projectId: string): Promise<DataKey> =>
    crypto.keys.dataKeyFor(projectId, context.project?.dataKey);

  const open = async (
    projectId: string,
    wrapped: Uint8Array | undefined,
    address: ValueAddress,
    sealed: Uint8Array,
  ) => {
    if (wrapped === undefined) throw new Error(`Project ${projectId} holds a value but no data key`);
    const key = await crypto.keys.dataKeyFor(projectId, wrapped);
    return crypto.decryptValue(key.plaintext, address, sealed);
  };

  /** Records the read, then answers: no value leaves unless its read is in the trail. */
  const recordRead = async (
    caller: Principal,
    origin: RequestOrigin,
    now: Date,
    projectId: string,
    environment: string,
    read: readonly { name: string; version: number }[],
  ) => {
    if (read.length === 0) return;
    const event = auditEvent('secret.read', origin, now, { projectId }, { environment, secrets: [...read] });
    await secrets.recordSecretRead(event, caller.userId, projectId);
  };

  const listSecrets = async (caller: Principal, projectId: string, environment: string, now: Date) => {
    const [, heads] = await Promise.all([
      requireContext(caller, projectId, environment, [], false),
      secrets.listSecretHeads(projectId, environment, false),
    ]);
    return heads
      .filter((head) => live(head, now))
      .map(shown)
      .sort(byName);
  };

  const getSecret = async (
    caller: Principal,
    projectId: string,
    environment: string,
    name: string,
    version: number | undefined,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const context = await requireContext(caller, projectId, environment, [name], true);
    const head = context.heads.get(name);
    if (!head || !live(head, now)) throw new NotFoundError(ErrorText.secretNotFound);
    let read: Pick<SecretVersionRecord, 'version' | 'updatedAt' | 'updatedBy' | 'ciphertext'> = head;
    if (version !== undefined && version !== head.version) {
      const stored =
        version < head.version
          ? await secrets.getSecretVersion(projectId, environment, name, head.life, version)
          : undefined;
      if (!stored || stored.deleted || !stored.ciphertext) throw new NotFoundError(ErrorText.secretVersionNotFound);
      read = stored;
    }
    const address = { projectId, environment, name, version: read.version };
    const value = await open(projectId, context.project?.dataKey, address, read.ciphertext as Uint8Array);
    await recordRead(caller, origin, now, projectId, environment, [{ name, version: read.version }]);
    return { name, value, version: read.version, updatedAt: read.updatedAt, updatedBy: read.updatedBy };
  };

  const exportSecrets = async (
    caller: Principal,
    projectId: string,
    environment: string,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [context, heads] = await Promise.all([
      requireContext(caller, projectId, environment, [], true),
      secrets.listSecretHeads(projectId, environment, true),
    ]);
    const values: Record<string, string> = {};
    const read: { name: string; version: number }[] = [];
    for (const head of heads.filter((candidate) => live(candidate, now)).sort(byName)) {
      const address = { projectId, environment, name: head.name, version: head.version };
      values[head.name] = await open(projectId, context.project?.dataKey, address, head.ciphertext as Uint8Array);
      read.push({ name: head.name, version: head.version });
    }
    await recordRead(caller, origin, now, projectId, environment, read);
    return values;
  };

  const listVersions = async (caller: Principal, projectId: string, environment: string, name: string, now: Date) => {
    const context = await requireContext(caller, projectId, environment, [name], false);
    const head = alive(context.heads.get(name), now);
    if (!head) throw new NotFoundError(ErrorText.secretNotFound);
    const versions = await secrets.listSecretVersions(projectId, environment, name, head.life);
    return versions.map(({ version, updatedAt, updatedBy, deleted }) => ({ version, updatedAt, updatedBy, deleted }));
  };

  /**
   * Writes `changes` of one environment as one transaction, reading again and retrying while another
   * writer changes what was read first: each change is judged against the heads as they are (a stated
   * `expectedVersion` that no longer holds is a 409, never a retry).
   */
  const write = async (
    caller: Principal,
    projectId: string,
    environment: string,
    changes: readonly Change[],
    origin: RequestOrigin,
    now: Date,
  ) => {
    const author: SecretAuthor = { userId: caller.userId, email: caller.email ?? null };
    const updatedAt = toIso(now);
    const names = changes.map((change) => change.name);
    // Only a change that seals or opens a value needs the project's data key: a delete reads no project.
    const needsKey = changes.some((change) => change.value !== undefined || change.restoredFrom !== undefined);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
      const context = await requireContext(caller, projectId, environment, names, needsKey);
      const key = needsKey ? await keyOf(context, projectId) : undefined;
      const writes: SecretWrite[] = [];
      const answers: {
        name: string;
        version: number;
        updatedAt: string;
        updatedBy: SecretAuthor;
        deleted: boolean;
        created: boolean;
      }[] = [];
      let countDelta = 0;
      let bytesDelta = 0;
      for (const change of changes) {
        const stored = context.heads.get(change.name);
        const head = alive(stored, now);
        const isLive = live(head, now);
        if (change.expectedVersion !== undefined && change.expectedVersion !== (isLive ? head?.version : 0)) {
          throw new ConflictError(ErrorText.secretConflict);
        }
        const version = (head?.version ?? 0) + 1;
        const life = head?.life ?? randomBase62(12);
        const address = { projectId, environment, name: change.name, version };
        let value = change.value;
        if (change.restoredFrom !== undefined) {
          if (!head) throw new NotFoundError(ErrorText.secretNotFound);
          const source = await secrets.getSecretVersion(
            projectId,
            environment,
            change.name,
            head.life,
            change.restoredFrom,
          );
          if (!source || source.deleted || !source.ciphertext) throw new NotFoundError(ErrorText.secretVersionNotFound);
          const from = { projectId, environment, name: change.name, version: change.restoredFrom };
          value = crypto.decryptValue((key as DataKey).plaintext, from, source.ciphertext);
        }
        const oldBytes = isLive ? (head?.exportBytes ?? 0) : 0;
        let type: AuditEventType;
        let next: SecretHeadRecord;
        let expiresAt: number | undefined;
        if (value === undefined) {
          if (!isLive || !head) throw new NotFoundError(ErrorText.secretNotFound);
          type = 'secret.deleted';
          next = {
            projectId,
            environment,
            name: change.name,
            life,
            version,
            updatedAt,
            updatedBy: author,
            exportBytes: 0,
            deletedAt: updatedAt,
          };
          expiresAt = Math.ceil((now.getTime() + DELETED_MS) / 1000);
          countDelta -= 1;
          bytesDelta -= oldBytes;
        } else {
          type = change.restoredFrom !== undefined ? 'secret.restored' : isLive ? 'secret.updated' : 'secret.created';
          const ciphertext = crypto.encryptValue((key as DataKey).plaintext, address, value);
          const exportBytes = exportBytesOf(change.name, value);
          next = {
            projectId,
            environment,
            name: change.name,
            life,
            version,
            updatedAt,
            updatedBy: author,
            ciphertext,
            exportBytes,
          };
          if (!isLive) countDelta += 1;
          bytesDelta += exportBytes - oldBytes;
        }
        writes.push({
          head: next,
          readVersion: stored?.version,
          version: {
            name: change.name,
            version,
            updatedAt,
            updatedBy: author,
            ...(next.ciphertext && { ciphertext: next.ciphertext }),
            deleted: value === undefined,
          },
          event: auditEvent(
            type,
            origin,
            now,
            { projectId },
            { environment, secrets: [{ name: change.name, version }] },
          ),
          ...(expiresAt !== undefined && { expiresAt }),
        });
        answers.push({
          name: change.name,
          version,
          updatedAt,
          updatedBy: author,
          deleted: value === undefined,
          created: value !== undefined && !isLive,
        });
      }
      const outcome = await secrets.writeSecrets({
        projectId,
        environment,
        userId: caller.userId,
        writes,
        countDelta,
        bytesDelta,
        ...(key?.created && { newDataKey: key.wrapped }),
      });
      if (outcome === 'written') return answers.sort(byName);
      if (outcome === 'notMember') throw new NotFoundError(ErrorText.projectNotFound);
      if (outcome === 'noEnvironment') throw new NotFoundError(ErrorText.environmentNotFound);
      if (outcome === 'limit') throw new ConflictError(ErrorText.secretLimit);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
    throw new ServiceUnavailableError();
  };

  const one = async (written: Promise<Awaited<ReturnType<typeof write>>>) => {
    const [answer] = await written;
    if (!answer) throw new Error('A write of one secret answered none');
    return { secret: shown(answer), created: answer.created };
  };

  return {
    listSecrets,
    getSecret,
    exportSecrets,
    listVersions,
    putSecret: (
      caller: Principal,
      projectId: string,
      environment: string,
      name: string,
      input: { value: string; expectedVersion?: number },
      origin: RequestOrigin,
      now: Date,
    ) =>
      one(
        write(
          caller,
          projectId,
          environment,
          [{ name, value: input.value, expectedVersion: input.expectedVersion }],
          origin,
          now,
        ),
      ),
    deleteSecret: async (
      caller: Principal,
      projectId: string,
      environment: string,
      name: string,
      origin: RequestOrigin,
      now: Date,
    ): Promise<void> => {
      await write(caller, projectId, environment, [{ name }], origin, now);
    },
    restoreSecret: async (
      caller: Principal,
      projectId: string,
      environment: string,
      name: string,
      version: number,
      origin: RequestOrigin,
      now: Date,
    ) => (await one(write(caller, projectId, environment, [{ name, restoredFrom: version }], origin, now))).secret,
    changeSecrets: async (
      caller: Principal,
      projectId: string,
      environment: string,
      input: { set?: Record<string, string>; delete?: string[]; expectedVersions?: Record<string, number> },
      origin: RequestOrigin,
      now: Date,
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
      const written = await write(caller, projectId, environment, changes, origin, now);
      return written.map(({ name, version, updatedAt, updatedBy, deleted }) => ({
        name,
        version,
        updatedAt,
        updatedBy,
        deleted,
      }));
    },
  };
};
