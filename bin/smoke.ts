/**
 * `npm run smoke -- <ApiUrl> [--origin <dashboard URL>]`: checks a running deployment from outside,
 * over HTTP only (smoke/run-smoke.ts). Exits 0 when every check passes, 1 when any fails, 2 on a
 * usage error.
 */
import { parseArgs } from 'node:util';
import { runSmoke } from '../smoke/run-smoke';

const DEFAULT_TIMEOUT_MS = 10_000;

const USAGE = [
  'Usage: npm run smoke -- <ApiUrl> [--origin <dashboard URL>]',
  "  <ApiUrl>          the stack's ApiUrl output, or the URL `npm start` prints",
  "  --origin          the dashboard to preflight from (the stack's DashboardUrl output); also SMOKE_ORIGIN;",
  "                    default: the dashboard the API's document names (x-dashboard-url), else the origin",
  '                    its answers grant; none is checked when the dashboard is on the API’s own origin',
  '  SMOKE_SESSION     a dashboard session (ID token): also create, use and revoke a one-day token',
  `  SMOKE_TIMEOUT_MS  how long one request may take (default ${DEFAULT_TIMEOUT_MS})`,
].join('\n');

/** A command line or variable the smoke test cannot run with. */
class UsageError extends Error {
  override readonly name = 'UsageError';
}

const httpUrl = (value: string, what: string): URL => {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${what} must be an http or https URL, got ${JSON.stringify(value)}.`);
  }
  return url;
};

const parseCommandLine = (args: readonly string[]) =>
  parseArgs({
    args: [...args],
    options: { origin: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });

const readOptions = (args: readonly string[], env: NodeJS.ProcessEnv) => {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return 'help' as const;
  const [url, ...extra] = parsed.positionals;
  if (url === undefined) throw new UsageError('Give the URL of the API to check.');
  if (extra.length) throw new UsageError(`Give one API URL, got ${parsed.positionals.length}.`);
  const api = httpUrl(url, 'The API URL');
  const originText = parsed.values.origin ?? (env.SMOKE_ORIGIN || undefined);
  const timeoutText = env.SMOKE_TIMEOUT_MS || String(DEFAULT_TIMEOUT_MS);
  if (!/^[1-9]\d*$/.test(timeoutText)) {
    throw new UsageError(
      `SMOKE_TIMEOUT_MS must be a whole number of milliseconds, got ${JSON.stringify(timeoutText)}.`,
    );
  }
  return {
    // The stage is part of the API's URL (`https://<id>.execute-api.<region>.amazonaws.com/prod/`).
    apiUrl: `${api.origin}${api.pathname}`.replace(/\/+$/, ''),
    origin: originText === undefined ? undefined : httpUrl(originText, '--origin').origin,
    session: env.SMOKE_SESSION || undefined,
    timeoutMs: Number(timeoutText),
  };
};

const main = async (): Promise<void> => {
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const results = await runSmoke({ ...options, now: new Date(), print: (line) => console.log(line) });
  process.exitCode = results.every((result) => result.passed) ? 0 : 1;
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
