import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CommandError, fileProblem, UsageError } from './errors';

/**
 * The encrypted snapshot `secrets run --fallback` keeps: AES-256-GCM under a key derived with scrypt
 * from `SECRETS_FALLBACK_PASSPHRASE` (or the key in `SECRETS_FALLBACK_KEY_FILE`), a fresh salt and
 * nonce per write. The time of the read and where it came from (API, project, environment) are
 * authenticated with the values, so a snapshot can be made neither younger nor another's by editing it.
 */

const FORMAT = 'secrets-fallback-v2';
/** The format before the source was recorded: it cannot say where it came from, so it is never used. */
const UNSOURCED_FORMAT = 'secrets-fallback-v1';
/** OWASP's scrypt parameters; 128 · N · r bytes (128 MiB) is above Node's default `maxmem`, hence its own. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } as const;
const MIN_PASSPHRASE_CHARACTERS = 16;
const MIN_KEY_FILE_BYTES = 32;

/** Where a snapshot's values were read: it stands in for that API, project and environment only. */
export interface SnapshotSource {
  /** The API's base URL, without any user or password. */
  readonly api: string;
  readonly projectId: string;
  readonly environment: string;
}

interface SnapshotFile {
  readonly format: typeof FORMAT;
  readonly createdAt: string;
  readonly source: SnapshotSource;
  readonly salt: string;
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

/** The secret a snapshot's key is derived from: a passphrase, or the bytes of a key file. */
export type FallbackKey = string | Buffer;

/**
 * The snapshot's secret from the environment: the bytes of `SECRETS_FALLBACK_KEY_FILE` (at least 32,
 * random), else `SECRETS_FALLBACK_PASSPHRASE` (at least 16 characters: a short one falls to a guess
 * against a stolen snapshot); anything less is a usage error.
 */
export const fallbackKey = (env: NodeJS.ProcessEnv): FallbackKey => {
  const keyFile = env.SECRETS_FALLBACK_KEY_FILE;
  if (keyFile) {
    let key: Buffer;
    try {
      key = readFileSync(keyFile);
    } catch (error) {
      throw new UsageError(`SECRETS_FALLBACK_KEY_FILE cannot be read: ${fileProblem(error)}`);
    }
    if (key.length < MIN_KEY_FILE_BYTES) {
      throw new UsageError(
        `SECRETS_FALLBACK_KEY_FILE holds ${key.length} bytes; it needs at least ${MIN_KEY_FILE_BYTES} random ones (head -c 32 /dev/urandom > FILE)`,
      );
    }
    return key;
  }
  const passphrase = env.SECRETS_FALLBACK_PASSPHRASE;
  if (!passphrase) throw new UsageError('--fallback needs SECRETS_FALLBACK_PASSPHRASE or SECRETS_FALLBACK_KEY_FILE');
  if ([...passphrase].length < MIN_PASSPHRASE_CHARACTERS) {
    throw new UsageError(
      `SECRETS_FALLBACK_PASSPHRASE must have at least ${MIN_PASSPHRASE_CHARACTERS} characters (or name a file of random bytes in SECRETS_FALLBACK_KEY_FILE)`,
    );
  }
  return passphrase;
};

const keyFor = (secret: FallbackKey, salt: Buffer): Buffer => scryptSync(secret, salt, 32, SCRYPT);
const additionalData = (createdAt: string, source: SnapshotSource) =>
  Buffer.from(JSON.stringify([FORMAT, createdAt, source.api, source.projectId, source.environment]));
const describe = (source: Partial<SnapshotSource>) =>
  `project ${source.projectId} / ${source.environment} at ${source.api}`;

/**
 * Writes the values as a snapshot readable by the owner only (mode 0600), replacing any earlier one at
 * once: through a new file of a random name beside it, created exclusively (a link planted at that name
 * fails the write rather than redirect it), then renamed over it.
 */
export const writeSnapshot = (
  file: string,
  values: Readonly<Record<string, string>>,
  secret: FallbackKey,
  source: SnapshotSource,
  now: Date = new Date(),
): void => {
  const createdAt = now.toISOString();
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, salt), iv);
  cipher.setAAD(additionalData(createdAt, source));
  const data = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  const snapshot: SnapshotFile = {
    format: FORMAT,
    createdAt,
    source: { api: source.api, projectId: source.projectId, environment: source.environment },
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  const descriptor = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeFileSync(descriptor, JSON.stringify(snapshot));
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
};

/**
 * A snapshot's values and when they were read; fails on a missing, wrong or stale snapshot, one of
 * another API, project or environment than `source`, and one of the earlier format, which does not say.
 */
export const readSnapshot = (
  file: string,
  secret: FallbackKey,
  maxAgeMs: number,
  source: SnapshotSource,
  now: Date = new Date(),
): { values: Record<string, string>; createdAt: string } => {
  // As read: any format, and (in an earlier one) no source.
  let snapshot: Omit<SnapshotFile, 'format' | 'source'> & { format: unknown; source?: Partial<SnapshotSource> };
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as typeof snapshot;
  } catch (error) {
    const why = error instanceof SyntaxError ? 'it is not JSON' : fileProblem(error);
    throw new CommandError(`no fallback snapshot can be read at ${file} (${why})`);
  }
  if (snapshot.format === UNSOURCED_FORMAT) {
    throw new CommandError(
      `${file} is a fallback snapshot of an earlier format, which does not record the API, project and environment it came from: it is not used (the next run that reaches the API replaces it)`,
    );
  }
  if (snapshot.format !== FORMAT) throw new CommandError(`${file} is not a fallback snapshot`);
  const recorded = snapshot.source ?? {};
  if (
    recorded.api !== source.api ||
    recorded.projectId !== source.projectId ||
    recorded.environment !== source.environment
  ) {
    throw new CommandError(
      `the fallback snapshot at ${file} is of ${describe(recorded)}, not of ${describe(source)}: it is not used`,
    );
  }
  let values: Record<string, string>;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(secret, Buffer.from(snapshot.salt, 'base64')),
      Buffer.from(snapshot.iv, 'base64'),
      // A full tag only: GCM would otherwise take a truncated one, which is forged far more easily.
      { authTagLength: 16 },
    );
    decipher.setAAD(additionalData(snapshot.createdAt, source));
    decipher.setAuthTag(Buffer.from(snapshot.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(snapshot.data, 'base64')), decipher.final()]);
    values = JSON.parse(plain.toString('utf8')) as Record<string, string>;
  } catch {
    throw new CommandError(
      `the fallback snapshot cannot be opened with its key (a wrong SECRETS_FALLBACK_PASSPHRASE or key file, or the file was changed)`,
    );
  }
  const age = now.getTime() - Date.parse(snapshot.createdAt);
  if (!(age <= maxAgeMs)) {
    throw new CommandError(`the fallback snapshot of ${snapshot.createdAt} is older than --fallback-max-age allows`);
  }
  return { values, createdAt: snapshot.createdAt };
};
