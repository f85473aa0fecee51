import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, linkSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { KEY_BYTES, openBytes, sealBytes } from './aes-gcm';
import type { KeyWrapper } from './envelope';

/** Permission bits a wrapping key file may have: read and write for its owner only. */
const OWNER_ONLY = 0o600;

/** A file system error's code (`EEXIST`, `EACCES`...); read by shape, as `instanceof Error` fails across realms (Jest). */
const errorCode = (error: unknown): string | undefined => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Makes `file` hold a new key unless it exists. The key is written whole to a draft of its own, then
 * linked to `file`: a link fails when `file` exists, so two processes starting together never overwrite
 * each other's key, and neither ever reads a file the other has only begun to write.
 */
const createKeyFile = (file: string): void => {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  const fd = openSync(draft, 'wx', OWNER_ONLY);
  try {
    try {
      writeSync(fd, randomBytes(KEY_BYTES));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(draft, file);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
};

/** What a key file holds: its permission bits, its size, and its bytes when it is a regular file of a key's size. */
interface KeyFile {
  readonly mode: number;
  readonly size: number;
  readonly key: Buffer | undefined;
}

const readKeyFile = (file: string): KeyFile => {
  const fd = openSync(file, 'r');
  try {
    // The checks are of the file opened, not of whatever the path names a moment later.
    const stat = fstatSync(fd);
    const size = stat.isFile() ? stat.size : -1;
    const key = Buffer.alloc(KEY_BYTES);
    const whole = size === KEY_BYTES && readSync(fd, key, 0, KEY_BYTES, 0) === KEY_BYTES;
    return { mode: stat.mode & 0o777, size, key: whole ? key : undefined };
  } finally {
    closeSync(fd);
  }
};

/**
 * The key kept in `file`, made there (mode 0600) when the file does not exist. Refused with one
 * sentence naming the file when it cannot be made or read, is open to more than its owner, or holds
 * anything but a key.
 */
const keyFromFile = (file: string): Buffer => {
  let found: KeyFile;
  try {
    createKeyFile(file);
    found = readKeyFile(file);
  } catch (error) {
    throw new Error(`The local wrapping key file ${file} cannot be made or read (${errorCode(error) ?? error}).`, {
      cause: error,
    });
  }
  if ((found.mode & ~OWNER_ONLY) !== 0) {
    throw new Error(
      `The local wrapping key file ${file} has mode 0${found.mode.toString(8).padStart(3, '0')}, open to more than its owner: make it 0600.`,
    );
  }
  if (found.key === undefined) {
    const held = found.size < 0 ? 'is not a regular file' : `holds ${found.size} bytes`;
    throw new Error(`The local wrapping key file ${file} ${held}, not a ${KEY_BYTES}-byte key.`);
  }
  return found.key;
};

/**
 * Data keys wrapped without KMS, for `npm start` and tests: AES-256-GCM under a local wrapping key
 * with the project's id as additional data, so a key wrapped for one project unwraps for no other. The
 * wrapping key is random, so what it wrapped is unreadable after the process ends, unless `file` names
 * where it is kept (read, or made with mode 0600), so that data survives a restart. Throws, naming the
 * file, when the file cannot be made or read, or is open to others or holds no key.
 */
export const localKeyWrapper = (file?: string): KeyWrapper => {
  const wrappingKey = file === undefined ? randomBytes(KEY_BYTES) : keyFromFile(file);
  const projectData = (projectId: string): Buffer => Buffer.from(projectId, 'utf8');
  return {
    generate: async (projectId) => {
      const plaintext = randomBytes(KEY_BYTES);
      return { plaintext, wrapped: sealBytes(wrappingKey, projectData(projectId), plaintext) };
    },
    unwrap: async (projectId, wrapped) =>
      openBytes(wrappingKey, projectData(projectId), wrapped, `The data key of project ${projectId}`),
  };
};
