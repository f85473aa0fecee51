import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../cli/build';

/**
 * Black-box harness for the `secrets` command: builds it once into a temporary folder, as
 * `npm run build:cli` does, and runs the built file with `node` as a child process.
 */

/** Environment of one run: `undefined` removes a variable. */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** How one run of `secrets` ended and what it printed. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Builds the command line into a fresh folder; answers the built file. */
export const buildCliOnce = async (): Promise<string> =>
  buildCli(join(mkdtempSync(join(tmpdir(), 'secrets-cli-')), 'secrets.js'));

/** The variables a run starts from: a PATH and a HOME, nothing of the test process's own. */
const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: tmpdir() });

const merge = (env: CliEnv): NodeJS.ProcessEnv => {
  const merged = baseEnv();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
};

/** Starts the built `secrets` with `args`; its standard streams are piped. */
export const spawnCli = (file: string, args: readonly string[], env: CliEnv, cwd?: string): ChildProcess =>
  spawn(process.execPath, [file, ...args], { env: merge(env), cwd, stdio: ['pipe', 'pipe', 'pipe'] });

/** Everything a child has printed, as it comes. */
export const collect = (child: ChildProcess) => {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return () => ({ stdout, stderr });
};

/** Runs the built `secrets` to its end, with `input` on its standard input. */
export const runCli = async (
  file: string,
  args: readonly string[],
  env: CliEnv,
  options: { input?: string; cwd?: string } = {},
): Promise<CliResult> => {
  const child = spawnCli(file, args, env, options.cwd);
  const output = collect(child);
  const exited = once(child, 'close');
  child.stdin?.end(options.input ?? '');
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  return { code, signal, ...output() };
};

/**
 * A TCP relay in front of the service, so that a test can stop "the API" while the service goes on
 * serving the rest of the file. The service sees the relay's loopback address, as it would the client's.
 */
export const startRelay = async (targetPort: number): Promise<{ url: string; stop(): Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('close', () => sockets.delete(end));
      end.on('error', () => undefined);
    }
    socket.pipe(upstream).pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  let stopped: Promise<void> | undefined;
  const stop = async () => {
    const closed = once(server, 'close');
    server.close();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
};

/** One request an HTTP recorder passed on: everything the client sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * An HTTP relay in front of the service that keeps every request it passes on, so that a test can
 * check what a client sent (and that it sent nothing at all). The service sees the relay's loopback address.
 */
export const startRecorder = async (
  targetPort: number,
): Promise<{ url: string; requests: RecordedRequest[]; stop(): Promise<void> }> => {
  const requests: RecordedRequest[] = [];
  const server = createHttpServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: body.toString('utf8'),
      });
      const upstream = httpRequest(
        { host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      upstream.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: async () => {
      const closed = once(server, 'close');
      server.closeAllConnections();
      server.close();
      await closed;
    },
  };
};
