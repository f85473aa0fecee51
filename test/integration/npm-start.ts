import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { freePort } from '../../local/dynamodb-local';
import { scripts } from '../../package.json';

/**
 * Black-box harness for the local runtime: runs what `npm start` and the other scripts of package.json
 * run, as child processes, as a developer would, and talks to them only over HTTP and their output.
 */

const ROOT = resolve(__dirname, '../..');

/**
 * The command of `npm run <name>` as package.json writes it (`node --require tsx/cjs bin/….ts`), with
 * the test's own Node for `node`; without npm itself, which would only add its own start to each run.
 */
const commandOf = (name: keyof typeof scripts): [string, ...string[]] => {
  const [program, ...args] = scripts[name].split(' ');
  if (program !== 'node') throw new Error(`npm run ${name} does not run a node script: ${scripts[name]}`);
  return [process.execPath, ...args];
};
/** The start line of `npm start`; its URL is the base URL every other printed command uses. */
const BANNER = /Secrets Service API on (http:\/\/\S+)\/api\/v1/;
/** Generous: a cold compile of the TypeScript plus the handler modules on a busy two-core machine. */
const DEFAULT_START_MS = 90_000;
const STOP_MS = 20_000;

/** Environment for a child: `undefined` removes a variable the test process has. */
export type ChildEnv = Readonly<Record<string, string | undefined>>;

/** What a child process wrote, so far or in all. */
export interface ChildOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `npm start`. */
export interface NpmService {
  /** The base URL from its start line, e.g. `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Everything it has printed until now. */
  output(): ChildOutput;
  /** Stops it as Ctrl-C would (SIGTERM, SIGKILL after a deadline) and waits until it has exited. */
  stop(): Promise<void>;
}

const childEnv = (env: ChildEnv): NodeJS.ProcessEnv => {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
};

const collect = (child: ChildProcess) => {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return (): ChildOutput => ({ stdout, stderr });
};

const stopChild = async (child: ChildProcess, exited: Promise<unknown>): Promise<void> => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  // A child that never started has nothing to stop; its failure is reported where it is awaited.
  await exited.catch(() => undefined);
  clearTimeout(timer);
};

/** A running script of `bin/`. */
export interface ScriptRun {
  /** Everything it has printed until now. */
  output(): ChildOutput;
  /** Its exit code (null when a signal ended it), once it has exited. */
  readonly exited: Promise<number | null>;
  /** Stops it as Ctrl-C would (SIGTERM, SIGKILL after a deadline) and waits until it has exited. */
  stop(): Promise<void>;
}

/** With which privileges a script runs: by default the test's own. */
export interface RunAs {
  /**
   * Run without CAP_DAC_OVERRIDE (through util-linux's `setpriv`), so that a folder's mode binds the
   * script as it binds any user; only meaningful for root, which otherwise writes anywhere. The script
   * stays the same user, so it still reads the clone wherever it lies (a folder only root may enter,
   * where a drop to another user could not even read the script).
   */
  readonly withoutWriteOverride?: boolean;
}

/** Starts `npm run <script>` (`start`: what `npm start` runs) with `args` under `env`. */
export const spawnScript = (
  script: keyof typeof scripts,
  args: readonly string[],
  env: ChildEnv,
  runAs: RunAs = {},
): ScriptRun => {
  const [file, ...before] = runAs.withoutWriteOverride
    ? ['setpriv', '--bounding-set=-dac_override', '--', ...commandOf(script)]
    : commandOf(script);
  const child = spawn(file, [...before, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { output: collect(child), exited, stop: () => stopChild(child, exited) };
};

/** Runs `npm run <script>` to its end; one still running after `timeoutMs` is killed and reported as timed out. */
export const runScript = async (
  script: keyof typeof scripts,
  args: readonly string[],
  env: ChildEnv,
  timeoutMs = DEFAULT_START_MS,
  runAs: RunAs = {},
): Promise<ChildOutput & { code: number | null; timedOut: boolean }> => {
  const run = spawnScript(script, args, env, runAs);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void run.stop();
  }, timeoutMs);
  try {
    const code = await run.exited;
    return { ...run.output(), code, timedOut };
  } finally {
    // Also when it never started: a timer left behind would stop it later, in whatever test runs then.
    clearTimeout(timer);
  }
};

/**
 * Starts `npm start` with `env` over these defaults: a free `PORT`, the integration run's DynamoDB
 * Local as `DYNAMODB_ENDPOINT` (so no Java starts) and a fresh `TABLE_NAME`. Resolves once its start
 * line is printed; rejects with its output if it exits first or prints nothing within `startMs`.
 * Call `stop()` in `afterAll`.
 */
export const startNpmService = async (env: ChildEnv = {}, startMs = DEFAULT_START_MS): Promise<NpmService> => {
  const defaults: ChildEnv = {
    // An in-process service of the same test file sets these for its own handlers; npm start must not trust them.
    SESSION_ISSUER: undefined,
    SESSION_AUDIENCE: undefined,
    SESSION_JWKS_URL: undefined,
    PORT: String(await freePort()),
    DYNAMODB_ENDPOINT: process.env.TEST_DYNAMODB_ENDPOINT,
    TABLE_NAME: `npm-start-${randomUUID().slice(0, 8)}`,
  };
  const run = spawnScript('start', [], { ...defaults, ...env });
  const baseUrl = await new Promise<string>((resolveStart, rejectStart) => {
    const fail = (reason: string) => {
      cleanUp();
      const { stdout, stderr } = run.output();
      rejectStart(new Error(`npm start ${reason}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    const onData = () => {
      const match = BANNER.exec(run.output().stdout);
      if (!match?.[1]) return;
      cleanUp();
      resolveStart(match[1]);
    };
    let settled = false;
    void run.exited.then(
      (code) => {
        if (!settled) fail(`exited with code ${code} before its start line`);
      },
      (error: unknown) => {
        if (!settled) fail(`did not start: ${String(error)}`);
      },
    );
    const timer = setInterval(onData, 100);
    const deadline = setTimeout(() => {
      void run.stop();
      fail(`printed no start line within ${startMs} ms`);
    }, startMs);
    const cleanUp = () => {
      settled = true;
      clearInterval(timer);
      clearTimeout(deadline);
    };
  });
  return { baseUrl, port: Number(new URL(baseUrl).port), output: run.output, stop: run.stop };
};
