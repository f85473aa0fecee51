const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

const threshold = LEVELS[(process.env.LOG_LEVEL as keyof typeof LEVELS | undefined) ?? 'info'] ?? LEVELS.info;

const write = (level: Level, message: string, fields: Record<string, unknown>): void => {
  if (LEVELS[level] < threshold) return;
  const line = `${JSON.stringify({ level, time: new Date().toISOString(), message, ...fields })}\n`;
  // Straight to the stream: console.log would format the one string argument again for nothing.
  if (level === 'error' || level === 'warn') process.stderr.write(line);
  else process.stdout.write(line);
};

/**
 * Structured JSON logger. Callers pass ids and outcomes, never credentials or request bodies.
 * Written here rather than with Powertools Logger, whose load adds several milliseconds to every
 * function's cold start, measured by `npm run bench` (cold load).
 */
export const logger = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write('debug', message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};

/** The loggable part of an error: name, message and stack, nothing attached to it. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack }
    : { error: String(error) };
