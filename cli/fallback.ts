import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { CommandError, fileProblem } from './errors';

/**
 * The encrypted snapshot `secrets run --fallback` keeps: AES-256-GCM under a key derived from
 * `SECRETS_FALLBACK_PASSPHRASE` with scrypt, a fresh salt and nonce per write. The time of the read is
 * authenticated with the values, so a snapshot cannot be made younger by editing it.
 */

const FORMAT = 'secrets-fallback-v1';
/** scrypt's cost: about 16 MiB and tens of milliseconds, once per run. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 } as const;

interface SnapshotFile {
  readonly format: typeof FORMAT;
  readonly createdAt: string;
  readonly salt: string;
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

const keyFor = (passphrase: string, salt: Buffer): Buffer => scryptSync(passphrase, salt, 32, SCRYPT);
const additionalData = (createdAt: string) => Buffer.from(`${FORMAT}\n${createdAt}`);

/** Writes the values as a snapshot readable by the owner only (mode 0600), replacing any earlier one at once. */
export const writeSnapshot = (
  file: string,
  values: Readonly<Record<string, string>>,
  passphrase: string,
  now: Date = new Date(),
): void => {
  const createdAt = now.toISOString();
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(passphrase, salt), iv);
  cipher.setAAD(additionalData(createdAt));
  const data = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  const snapshot: SnapshotFile = {
    format: FORMAT,
    createdAt,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(snapshot), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
};

/** A snapshot's values and when they were read; fails on a missing, wrong or stale snapshot. */
export const readSnapshot = (
  file: string,
  passphrase: string,
  maxAgeMs: number,
  now: Date = new Date(),
): { values: Record<string, string>; createdAt: string } => {
  let snapshot: SnapshotFile;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile;
  } catch (error) {
    const why = error instanceof SyntaxError ? 'it is not JSON' : fileProblem(error);
    throw new CommandError(`no fallback snapshot can be read at ${file} (${why})`);
  }
  if (snapshot.format !== FORMAT) throw new CommandError(`${file} is not a fallback snapshot`);
  let values: Record<string, string>;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(passphrase, Buffer.from(snapshot.salt, 'base64')),
      Buffer.from(snapshot.iv, 'base64'),
    );
    decipher.setAAD(additionalData(snapshot.createdAt));
    decipher.setAuthTag(Buffer.from(snapshot.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(snapshot.data, 'base64')), decipher.final()]);
    values = JSON.parse(plain.toString('utf8')) as Record<string, string>;
  } catch {
    throw new CommandError(
      `the fallback snapshot cannot be opened with SECRETS_FALLBACK_PASSPHRASE (wrong passphrase, or the file was changed)`,
    );
  }
  const age = now.getTime() - Date.parse(snapshot.createdAt);
  if (!(age <= maxAgeMs)) {
    throw new CommandError(`the fallback snapshot of ${snapshot.createdAt} is older than --fallback-max-age allows`);
  }
  return { values, createdAt: snapshot.createdAt };
};
