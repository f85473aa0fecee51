import { type ChildProcess, spawn } from 'node:child_process';
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

/** A started command: its process, and its exit code (as `runChild` answers it) once it has ended. */
interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<number>;
}

/** Starts `command` with `env`, standard streams inherited; a command that cannot start says why through `say`. */
const start = (
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  say: (text: string) => void,
): Started => {
  const child = spawn(command, args, { env, stdio: 'inherit' });
  const exited = new Promise<number>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const failure = START_FAILURES[error.code ?? ''] ?? { code: 126, why: error.message };
      say(`error: cannot start ${command}: ${failure.why}\n`);
      resolve(failure.code);
    });
    child.on('exit', (code, signal) => {
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
  return { child, exited };
};

/** The signals of `FORWARDED` that ask a program to end. */
const ENDING: ReadonlySet<NodeJS.Signals> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

/**
 * Passes the signals of `FORWARDED` on to whichever child `current` answers, telling `heard` of each
 * first; answers how to stop.
 */
const forwardSignals = (
  current: () => ChildProcess,
  heard: (signal: NodeJS.Signals) => void = () => {},
): (() => void) => {
  const handlers = FORWARDED.map(
    (signal) =>
      [
        signal,
        () => {
          heard(signal);
          current().kill(signal);
        },
      ] as const,
  );
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
};

/**
 * Runs `command` with `env`, standard streams inherited, passing on the signals of `FORWARDED`; answers
 * its exit code, 128 + the number of the signal that ended it, or, when it cannot start, 127 or 126
 * after saying why through `say`, as a shell does.
 */
export const runChild = async (
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  say: (text: string) => void,
): Promise<number> => {
  const { child, exited } = start(command, args, env, say);
  const stop = forwardSignals(() => child);
  try {
    return await exited;
  } finally {
    stop();
  }
};

/** How `superviseChild` watches for a new environment and acts on one. */
export interface Watch {
  /** Time between the end of one check and the start of the next. */
  readonly intervalMs: number;
  /** A new environment for the command, or undefined when nothing changed (or the check failed, and said so). */
  readonly check: () => Promise<NodeJS.ProcessEnv | undefined>;
  /** The signal that tells the command of a change; without one, the command is restarted. */
  readonly signal?: NodeJS.Signals;
  /** How long a restarted command has between SIGTERM and SIGKILL. */
  readonly graceMs: number;
}

/**
 * Runs `command` as `runChild` does, and every `watch.intervalMs` asks `watch.check` for a new
 * environment: on one, it signals the command, or stops it (SIGTERM, SIGKILL after the grace) and
 * starts it again with the new environment. Answers the exit code of the command that ends on its own,
 * or of the one it was restarting when a signal asked it to end (SIGINT, SIGTERM, SIGHUP, SIGQUIT):
 * that signal reaches the command being stopped, and no other is started after it.
 */
export const superviseChild = async (
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  say: (text: string) => void,
  watch: Watch,
): Promise<number> => {
  let current = start(command, args, env, say);
  let restarting: Promise<void> | undefined;
  let ended = false;
  /** A signal asked the run to end while a restart was stopping the command: none is started after it. */
  let endAsked = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = forwardSignals(
    () => current.child,
    (signal) => {
      if (restarting !== undefined && ENDING.has(signal)) endAsked = true;
    },
  );
  const restart = async (next: NodeJS.ProcessEnv) => {
    const old = current;
    const kill = setTimeout(() => old.child.kill('SIGKILL'), watch.graceMs);
    old.child.kill('SIGTERM');
    await old.exited;
    clearTimeout(kill);
    if (!endAsked) current = start(command, args, next, say);
  };
  const schedule = () => {
    timer = setTimeout(async () => {
      const next = await watch.check();
      const running = current.child.exitCode === null && current.child.signalCode === null;
      if (ended || !running) return;
      if (next !== undefined && watch.signal !== undefined) current.child.kill(watch.signal);
      if (next !== undefined && watch.signal === undefined) {
        restarting = restart(next);
        await restarting;
        restarting = undefined;
        if (endAsked) return;
      }
      schedule();
    }, watch.intervalMs);
  };
  schedule();
  try {
    // The command a restart stopped does not end the run; the one that ends on its own does.
    for (;;) {
      const running = current;
      const code = await running.exited;
      if (restarting === undefined && running === current) return code;
      await restarting;
    }
  } finally {
    ended = true;
    clearTimeout(timer);
    stop();
  }
};
