/** A mistake in how the command was called (a missing project, environment or token): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the command explains itself (a stale snapshot, an unreadable file): exit code 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/**
 * A failure with a second line that helps (a near name, the version now current): exit code 1.
 * `message` is the first line, in the API's words when the API refused.
 */
export class ExplainedError extends CommandError {
  constructor(
    message: string,
    /** The line printed after the error: "Did you mean staging?". */
    readonly explanation: string,
  ) {
    super(message);
  }
}

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
};

/** Why a file could not be read, in a few words: "no such file", "permission denied", else the system's message. */
export const fileProblem = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && FILE_PROBLEMS[code]) return FILE_PROBLEMS[code];
  return error instanceof Error ? error.message : String(error);
};
