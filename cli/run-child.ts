import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { CommandError } from './errors';

/** The signals `secrets run` passes on to its child. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `command` with `env`, standard streams inherited, passing on SIGINT, SIGTERM and SIGHUP; answers
 * its exit code, or 128 + the number of the signal that ended it, as a shell does.
 */
export const runChild = (command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> =>
  new Promise((resolve, reject) => {
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
      reject(new CommandError(`cannot start ${command}: ${error.code === 'ENOENT' ? 'not found' : error.message}`));
    });
    child.on('exit', (code, signal) => {
      cleanUp();
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
