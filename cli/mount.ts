import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { CommandError, fileProblem } from './errors';
import { formatExport } from './formats';

/** The formats `run --mount` writes. */
export const MOUNT_FORMATS = ['dotenv', 'json', 'yaml'] as const;
export type MountFormat = (typeof MOUNT_FORMATS)[number];

/** The format a mount file's name asks for: `.json`, `.yaml` or `.yml`, else dotenv. */
export const mountFormatOf = (path: string): MountFormat => {
  const extension = extname(path).toLowerCase();
  return extension === '.json' ? 'json' : extension === '.yaml' || extension === '.yml' ? 'yaml' : 'dotenv';
};

/** The secrets' file of `run --mount`, which only this run writes and removes. */
export interface Mount {
  /** Where it is, absolute: what the command gets as `SECRETS_MOUNT_PATH`. */
  readonly path: string;
  /** Writes `values`: the first time into a file created anew, then through a new file renamed over it. */
  write(values: Readonly<Record<string, string>>): void;
  /** Removes the file, if it is still the one this run wrote. */
  remove(): void;
}

/**
 * Writes `text` into a file created here and now (`wx`: never an existing file, never through a link
 * planted at its path), mode 0600 so that no other user reads the values.
 */
const createExclusive = (path: string, text: string): void => {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
};

/**
 * The identity of a file as its folder holds it, or undefined when nothing is there: its inode, which
 * a file made after ours was removed may reuse, and its change time, which that file cannot share.
 */
const identity = (path: string): string | undefined => {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isFile() ? `${stat.dev}:${stat.ino}:${stat.ctimeNs}` : 'not a regular file';
  } catch {
    return undefined;
  }
};

/** A mount at `path` in `format`; nothing is written until the first `write`. */
export const createMount = (path: string, format: MountFormat): Mount => {
  const absolute = resolve(path);
  let written: string | undefined;
  return {
    path: absolute,
    write(values) {
      const text = formatExport(values, format);
      if (written === undefined) {
        try {
          createExclusive(absolute, text);
        } catch (error) {
          const why =
            (error as { code?: unknown }).code === 'EEXIST' ? 'something is already there' : fileProblem(error);
          throw new CommandError(`cannot create the mount file ${absolute}: ${why}`);
        }
      } else {
        if (identity(absolute) !== written) {
          throw new CommandError(`the mount file ${absolute} was replaced or removed by someone else: not updated`);
        }
        // Readers see the old file or the new one whole, never half of one.
        const temporary = join(dirname(absolute), `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`);
        try {
          createExclusive(temporary, text);
        } catch (error) {
          throw new CommandError(`cannot update the mount file ${absolute}: ${fileProblem(error)}`);
        }
        try {
          renameSync(temporary, absolute);
        } catch (error) {
          unlinkSync(temporary);
          throw new CommandError(`cannot update the mount file ${absolute}: ${fileProblem(error)}`);
        }
      }
      written = identity(absolute);
    },
    remove() {
      if (written !== undefined && identity(absolute) === written) unlinkSync(absolute);
      written = undefined;
    },
  };
};
