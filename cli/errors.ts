/** A mistake in how the command was called (a missing project, environment or token): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the command explains itself (a stale snapshot, an unreadable file): exit code 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}
