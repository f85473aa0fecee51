/**
 * `npm run workload-token -- --sub <subject> [--aud <audience>] [--claim name=value]... [--expires-in 5m]`:
 * prints one workload ID token of the running local service's development workload issuer
 * (`/_dev/workload`), as a CI job would get one from its OpenID Connect issuer. Exits 2 on a usage error,
 * 1 when the service cannot be reached or refuses.
 */
import { parseArgs } from 'node:util';
import { DEV_WORKLOAD_AUDIENCE, DEV_WORKLOAD_MAX_SECONDS, DEV_WORKLOAD_PATH } from '../local/dev-workload';

const USAGE = [
  'Usage: npm run workload-token -- --sub <subject> [--aud <audience>] [--claim name=value]... [--expires-in 5m]',
  '  --sub         the subject, e.g. repo:acme/app:ref:refs/heads/main',
  `  --aud         the audience (default ${DEV_WORKLOAD_AUDIENCE})`,
  '  --claim       one more claim, name=value (repeat it for more)',
  `  --expires-in  how long it lasts: seconds, or 30s, 5m, 1h (default 5m, at most ${DEV_WORKLOAD_MAX_SECONDS / 60}m)`,
  '  BASE_URL      the local service (default http://127.0.0.1:$PORT, PORT default 3000)',
].join('\n');

class UsageError extends Error {
  override readonly name = 'UsageError';
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600 };

/** Seconds of `30`, `30s`, `5m` or `1h`. */
const readDuration = (text: string): number => {
  const match = /^(\d+)([smh]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > DEV_WORKLOAD_MAX_SECONDS) {
    throw new UsageError(
      `--expires-in must be 1 s to ${DEV_WORKLOAD_MAX_SECONDS / 60}m, as seconds or with s, m or h (e.g. 5m), got ${JSON.stringify(text)}.`,
    );
  }
  return seconds;
};

const readRequest = (args: readonly string[]) => {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help' as const;
  if (positionals.length > 0) throw new UsageError(`Unexpected ${JSON.stringify(positionals[0])}: name it with --sub.`);
  if (!values.sub) throw new UsageError('Give the subject with --sub, e.g. --sub repo:acme/app:ref:refs/heads/main.');
  const claims: Record<string, string> = {};
  for (const claim of values.claim ?? []) {
    const equals = claim.indexOf('=');
    if (equals < 1) throw new UsageError(`--claim takes name=value, got ${JSON.stringify(claim)}.`);
    claims[claim.slice(0, equals)] = claim.slice(equals + 1);
  }
  return {
    sub: values.sub,
    ...(values.aud !== undefined && { aud: values.aud }),
    ...(Object.keys(claims).length > 0 && { claims }),
    ...(values['expires-in'] !== undefined && { expiresIn: readDuration(values['expires-in']) }),
  };
};

const parse = (args: readonly string[]) =>
  parseArgs({
    args: [...args],
    options: {
      sub: { type: 'string' },
      aud: { type: 'string' },
      claim: { type: 'string', multiple: true },
      'expires-in': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });

const main = async (): Promise<void> => {
  const request = readRequest(process.argv.slice(2));
  if (request === 'help') {
    console.log(USAGE);
    return;
  }
  // `npm start` prints BASE_URL; PORT alone serves a service on loopback (as `npm run session`).
  const base = process.env.BASE_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
  const response = await fetch(`${base}${DEV_WORKLOAD_PATH}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  }).catch(() => {
    throw new Error(
      `No local service answers on ${base}: start it with \`npm start\`, or set BASE_URL to the URL it printed.`,
    );
  });
  const body = (await response.json().catch(() => ({}))) as { token?: string; error?: string };
  if (!response.ok || !body.token) {
    throw new Error(
      `The development workload issuer on ${base} refused (${response.status}): ${body.error ?? 'no token in its answer'}`,
    );
  }
  console.log(body.token);
};

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
