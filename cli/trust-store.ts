import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { CommandError } from './errors';

/**
 * The person's own list of the `.secrets.json` files they trust, as direnv's `allow`: each folder with
 * the sha256 of its file's bytes when trusted and the target the file named then. A file is followed
 * only while its folder is listed with its bytes' hash, so a file someone else wrote, or changed since,
 * cannot choose the project a person's secrets are written to.
 */

/** One trusted `.secrets.json`: the hash of its bytes and the target it named. */
export interface TrustEntry {
  readonly sha256: string;
  readonly project: string;
  readonly environment: string;
}

/** What the store says of a folder's file: trusted with these bytes, trusted with others, or never. */
export type Trust = 'trusted' | 'changed' | 'untrusted';

interface StoreFile {
  readonly folders: Record<string, TrustEntry & { readonly trustedAt: string }>;
}

/** The sha256 of a file's bytes, in hex. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * `$XDG_CONFIG_HOME/secrets/trusted.json`, else `~/.config/secrets/trusted.json`; a relative
 * `XDG_CONFIG_HOME` is ignored, as the XDG base directory specification says.
 */
export const trustStoreFile = (env: NodeJS.ProcessEnv): string => {
  const named = env.XDG_CONFIG_HOME;
  const config = named && isAbsolute(named) ? named : join(env.HOME || homedir(), '.config');
  return join(config, 'secrets', 'trusted.json');
};

const readStore = (store: string): StoreFile => {
  let text: string;
  try {
    text = readFileSync(store, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folders: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const folders = (parsed as { folders?: unknown } | undefined)?.folders;
  if (typeof folders !== 'object' || folders === null || Array.isArray(folders)) {
    throw new CommandError(
      `${store} is not a list of trusted folders: fix it, or remove it and trust your folders again`,
    );
  }
  return { folders: folders as StoreFile['folders'] };
};

/** Replaces the store at once (a temporary file renamed over it), readable by its owner only in a folder of theirs. */
const writeStore = (store: string, content: StoreFile): void => {
  const folder = dirname(store);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const temporary = `${store}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, store);
};

/** Whether the store trusts the file of `folder` whose bytes hash to `hash`. */
export const trustOf = (store: string, folder: string, hash: string): Trust => {
  const { folders } = readStore(store);
  if (!Object.hasOwn(folders, folder)) return 'untrusted';
  const entry = folders[folder];
  return entry?.sha256 === hash ? 'trusted' : 'changed';
};

/** Trusts the file of `folder` with these bytes and target, replacing what was trusted there before. */
export const recordTrust = (store: string, folder: string, entry: TrustEntry): void => {
  const { folders } = readStore(store);
  folders[folder] = { ...entry, trustedAt: new Date().toISOString() };
  writeStore(store, { folders });
};

/** Stops trusting the file of `folder`; answers whether it was trusted. */
export const revokeTrust = (store: string, folder: string): boolean => {
  const { folders } = readStore(store);
  if (!Object.hasOwn(folders, folder)) return false;
  delete folders[folder];
  writeStore(store, { folders });
  return true;
};
