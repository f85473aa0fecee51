import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The signals `secrets run` passes on to its command: those a supervisor, a terminal or a user sends to
 * a running program. Each has a listener while the command runs, which also keeps Node's own default
 * from acting on the wrapper (SIGQUIT ending it with its command left running, SIGUSR1 opening the
 * inspector).
 */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGWINCH'] as const;

/** A shell's exit codes for a command it cannot start: 127 not found, 126 found but not executable. */
const START_FAILURES: Readonly<Record<string, { readonly code: number; readonly why: string }>> = {
  ENOENT: { code: 127, why: 'not found' },
  EACCES: { code: 126, why: 'permission denied' },
  EISDIR: { code: 126, why: 'it is a folder' },
  ENOEXEC: { code: 126, why: 'not an executable format' },
};

/**
 * Runs `command` with `env`, standard streams inherited, passing on the signals of `FORWARDED`; answers
 * its exit code, 128 + the number of the signal that ended it, or, when it cannot start, 127 or 126
 * after saying why through `say`, as a shell does.
 */
export const runChild = (
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  say: (text: string) => void,
): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
    };
    const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const cleanUp = () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      cleanUp();
      const failure = START_FAILURES[error.code ?? ''] ?? { code: 126, why: error.message };
      say(`error: cannot start ${command}: ${failure.why}\n`);
      resolve(failure.code);
    });
    child.on('exit', (code, signal) => {
      cleanUp();
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
