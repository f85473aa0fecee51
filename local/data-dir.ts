import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StartConfigError } from './start-config';

/** The file in `DATA_DIR` that says which `npm start` uses the folder: its process id. */
export const LOCK_FILE = 'npm-start.lock';

/**
 * The file in `DATA_DIR` that keeps the local wrapping key (in place of KMS), so that the secrets
 * written in one run still decrypt in the next; made with mode 0600 by the local key wrapper.
 */
export const WRAPPING_KEY_FILE = 'wrapping.key';

/** `DATA_DIR`, held by this process until `release` or its exit. */
export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still this process's; safe to call twice. */
  release(): void;
}

const quoted = (value: string) => JSON.stringify(value);
const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? 'unknown error');

/** A file system's refusal in words; the code in brackets for searching. */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  // mkdir answers so where no folder can be made, e.g. in /proc: the parent exists, yet takes no child.
  ENOENT: 'no folder can be made there',
};

const reasonOf = (error: unknown): string => {
  const code = codeOf(error);
  return REASONS[code] ? `${REASONS[code]}, ${code}` : code;
};

const INSTEAD = 'set DATA_DIR to a folder you can write, or unset it to keep the data in memory';

const notAFolder = (dataDir: string, file: string) =>
  new StartConfigError(
    file === dataDir
      ? `DATA_DIR ${quoted(dataDir)} is a file, not a folder: ${INSTEAD}.`
      : `DATA_DIR ${quoted(dataDir)} cannot be a folder, as ${quoted(file)} is a file: ${INSTEAD}.`,
  );

const cannotCreate = (dataDir: string, error: unknown) =>
  new StartConfigError(`DATA_DIR ${quoted(dataDir)} cannot be created (${reasonOf(error)}): ${INSTEAD}.`);

/**
 * Creates `dataDir` and its missing parents, one `mkdir` each. Not `mkdirSync(…, {recursive: true})`:
 * Node's takes an ENOENT for a missing parent, makes the parent (which exists) and tries again, for
 * ever, where the parent exists but takes no child (`/proc/nope` spins at full CPU).
 */
const createFolder = (dataDir: string): void => {
  const missing: string[] = [];
  for (let path = dataDir; ; path = dirname(path)) {
    try {
      if (!statSync(path).isDirectory()) throw notAFolder(dataDir, path);
      break;
    } catch (error) {
      if (error instanceof StartConfigError) throw error;
      // A file on the way: `statSync('file/sub')` is ENOTDIR; the file itself is found further up.
      if (codeOf(error) !== 'ENOENT' && codeOf(error) !== 'ENOTDIR') throw cannotCreate(dataDir, error);
    }
    if (dirname(path) === path) break;
    missing.unshift(path);
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      throw cannotCreate(dataDir, error);
    }
  }
};

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return codeOf(error) === 'EPERM';
  }
};

/** The process id a lock file holds, or undefined when it is gone or holds none. */
const holderOf = (file: string): number | undefined => {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/** Creates the lock file, or answers false when there is one already. */
const createLock = (dataDir: string, file: string): boolean => {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw new StartConfigError(`DATA_DIR ${quoted(dataDir)} is not writable (${reasonOf(error)}): ${INSTEAD}.`);
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
};

/**
 * Makes `dataDir` ready for one `npm start`: creates it, checks it is a writable folder (by writing
 * its lock file) and takes the lock, all before anything starts. Another `npm start` on the folder
 * would append every audit event to `events.jsonl` a second time, and two DynamoDB Locals on one
 * database file corrupt it; the lock of a process that has ended is taken over. Each refusal is one
 * sentence naming `DATA_DIR`.
 */
export const lockDataDir = (dataDir: string): DataDirLock => {
  createFolder(dataDir);
  const file = join(dataDir, LOCK_FILE);
  if (!createLock(dataDir, file)) {
    const holder = holderOf(file);
    if (holder !== undefined && holder !== process.pid && isRunning(holder)) {
      throw new StartConfigError(
        `DATA_DIR ${quoted(dataDir)} is in use by another npm start (process ${holder}): stop it, or set DATA_DIR to another folder (delete ${quoted(file)} if no npm start runs).`,
      );
    }
    // Left by a process that has ended: take it over. A start racing for the same stale lock loses here.
    try {
      unlinkSync(file);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw cannotCreate(dataDir, error);
    }
    if (!createLock(dataDir, file)) {
      throw new StartConfigError(
        `DATA_DIR ${quoted(dataDir)} is in use by another npm start that started just now: set DATA_DIR to another folder.`,
      );
    }
  }
  const release = (): void => {
    process.off('exit', release);
    if (holderOf(file) !== process.pid) return;
    try {
      unlinkSync(file);
    } catch {
      // Gone already: nothing to release.
    }
  };
  // However the process ends short of a kill, the folder is free again.
  process.on('exit', release);
  return { path: dataDir, release };
};
