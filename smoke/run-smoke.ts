import { isDeepStrictEqual } from 'node:util';
import { CORS_REQUEST_HEADERS } from '@contract/cors';
import { API_DOCUMENT_PATH, DASHBOARD_URL_FIELD } from '@contract/dashboard';
import { ErrorText } from '@contract/errors';
import { type GatewayResponseType, gatewayResponse } from '@contract/gateway-responses';
import { TOKEN_LENGTH, TOKEN_PREFIX } from '@contract/identifiers';
import { RATE_LIMIT_PROBE_HEADER, RATE_LIMIT_PROBE_VALUE, RATE_LIMITED_BODY } from '@contract/rate-limit';
import { type RouteContract, SAMPLE_WORLD } from '@contract/route';
import { methodsByPath } from '@contract/route-table';
import { routes } from '@contract/routes';
import { createTokenRoute } from '@contract/routes/create-token';
import { revokeTokenRoute } from '@contract/routes/revoke-token';
import { describeOutcome, type Outcome, type ProbeRequest, probe } from './probe';

/**
 * The smoke test of a running deployment: what a client outside sees over HTTP, checked against the
 * route contracts and the gateway's answers. Each check prints one line as it ends.
 */

/** How to run the checks. */
export interface SmokeOptions {
  /** The API's base URL (the stack's `ApiUrl` output), without a trailing slash. */
  readonly apiUrl: string;
  /**
   * The dashboard's origin to preflight from; `undefined`: the one the API's document names, else the
   * one its answers grant.
   */
  readonly origin: string | undefined;
  /** A dashboard session (an ID token) for the token's life; `undefined` skips those checks. */
  readonly session: string | undefined;
  /** How long one request may take, answer read whole. */
  readonly timeoutMs: number;
  /** When the run started: it names the token it creates. */
  readonly now: Date;
  /** Prints one line. */
  readonly print: (line: string) => void;
}

/** The outcome of one check. */
export interface CheckResult {
  readonly name: string;
  readonly passed: boolean;
  /** What was seen (passed), or what was expected and what came instead (failed). */
  readonly detail: string;
}

/** A status and body the contract fixes. */
interface FixedAnswer {
  readonly status: number;
  readonly body: unknown;
}

const fixedAnswer = (type: GatewayResponseType): FixedAnswer => {
  const { statusCode, template } = gatewayResponse(type);
  if (statusCode === undefined) throw new Error(`The gateway response ${type} has no fixed status`);
  return { status: statusCode, body: JSON.parse(template) };
};

const UNAUTHORIZED = [fixedAnswer('UNAUTHORIZED')];
/** A sign-in's one refusal, whatever proved false. */
const IDENTITY_NOT_ACCEPTED = [{ status: 401, body: { success: false, error: ErrorText.identityNotAccepted } }];
// API Gateway answers a path or method it does not know with MISSING_AUTHENTICATION_TOKEN, and may
// answer RESOURCE_NOT_FOUND; either is the contract's answer to an unknown path.
const NOT_FOUND = [fixedAnswer('MISSING_AUTHENTICATION_TOKEN'), fixedAnswer('RESOURCE_NOT_FOUND')].filter(
  (answer, index, all) => all.findIndex((other) => isDeepStrictEqual(other, answer)) === index,
);
/** Under the API's prefix, and matched by no route template. */
const UNKNOWN_PATH = '/api/v1/smoke-no-such-route';
/** Shaped like an API token, but no token's (its checksum is wrong): the authorizer must refuse it. */
const FORGED_TOKEN = `${TOKEN_PREFIX}${'0'.repeat(TOKEN_LENGTH - TOKEN_PREFIX.length)}`;

/** The route a new token is used on: a read without path parameters that needs the narrowest scope. */
const readRoute: RouteContract = (() => {
  const reads = routes.filter(
    (contract) => contract.method === 'GET' && contract.tokenScope !== null && !contract.path.includes('{'),
  );
  const found = reads.find((contract) => contract.tokenScope !== 'admin') ?? reads[0];
  if (!found) throw new Error('No route lets an API token read without path parameters');
  return found;
})();

/** A route's path with `params` (raw, as they appear in a path) in its `{param}` segments. */
const fillPath = (contract: RouteContract, params: Readonly<Record<string, string>>): string =>
  contract.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for ${name} of ${contract.path}`);
    return value;
  });

/** A route's path with its contract's sample parameters. */
const samplePath = (contract: RouteContract): string => fillPath(contract, contract.sample(SAMPLE_WORLD).params ?? {});

const passed = (name: string, detail: string): CheckResult => ({ name, passed: true, detail });
const failed = (name: string, detail: string): CheckResult => ({ name, passed: false, detail });

const showFixed = (answer: FixedAnswer): string => `${answer.status} ${JSON.stringify(answer.body)}`;

/** Whether the answer is one of `expected`, status and body; `withBody` shows a wrong answer's body. */
const checkFixed = (
  name: string,
  outcome: Outcome,
  expected: readonly FixedAnswer[],
  withBody: boolean,
): CheckResult => {
  const answer = 'answer' in outcome ? outcome.answer : undefined;
  if (answer && expected.some((one) => one.status === answer.status && isDeepStrictEqual(one.body, answer.json))) {
    return passed(name, String(answer.status));
  }
  return failed(name, `expected ${expected.map(showFixed).join(' or ')}, got ${describeOutcome(outcome, withBody)}`);
};

/** Whether the answer is the route's success, its body as the contract describes it. Never shows the body. */
const checkSuccess = (name: string, outcome: Outcome, contract: RouteContract): CheckResult => {
  const { status } = contract.success;
  const answer = 'answer' in outcome ? outcome.answer : undefined;
  if (answer?.status !== status) return failed(name, `expected ${status}, got ${describeOutcome(outcome, false)}`);
  if (!contract.schemas().response.safeParse(answer.json).success) {
    return failed(name, `expected ${status} with the body its contract describes, got another body`);
  }
  return passed(name, String(status));
};

const listOf = (header: string | null): string[] =>
  (header ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');

/** Whether a preflight's answer lets the dashboard send the path's methods with its headers. */
const checkPreflight = (name: string, outcome: Outcome, origin: string, methods: readonly string[]): CheckResult => {
  if ('noAnswer' in outcome) return failed(name, `expected a 2xx answer, got ${outcome.noAnswer}`);
  const { status, headers } = outcome.answer;
  if (status < 200 || status > 299) return failed(name, `expected a 2xx answer, got ${describeOutcome(outcome, true)}`);
  const problems: string[] = [];
  const allowOrigin = headers.get('access-control-allow-origin');
  if (allowOrigin !== origin)
    problems.push(`expected Access-Control-Allow-Origin ${origin}, got ${allowOrigin ?? 'none'}`);
  for (const [header, wanted] of [
    ['Access-Control-Allow-Methods', methods],
    ['Access-Control-Allow-Headers', CORS_REQUEST_HEADERS],
  ] as const) {
    const allowed = listOf(headers.get(header));
    const missing = wanted.filter((item) => !allowed.includes(item.toLowerCase()));
    if (missing.length)
      problems.push(`expected ${header} to include ${missing.join(', ')}, got ${headers.get(header) ?? 'none'}`);
  }
  return problems.length ? failed(name, problems.join('; ')) : passed(name, String(status));
};

/** The origin an answer grants, when it names one that is an origin. */
const grantedOrigin = (outcome: Outcome): string | undefined => {
  const named = 'answer' in outcome ? outcome.answer.headers.get('access-control-allow-origin') : null;
  return named && URL.canParse(named) && new URL(named).origin === named ? named : undefined;
};

/** One line per check: `ok   <name> → <seen>` or `FAIL <name>: expected …, got …`. */
export const formatResult = (result: CheckResult): string =>
  result.passed ? `ok   ${result.name} → ${result.detail}` : `FAIL ${result.name}: ${result.detail}`;

/** The last line: how many checks failed, and which. */
export const summaryLine = (results: readonly CheckResult[], apiUrl: string): string => {
  const failures = results.filter((result) => !result.passed);
  return failures.length === 0
    ? `All ${results.length} checks passed on ${apiUrl}`
    : `${failures.length} of ${results.length} checks failed on ${apiUrl}: ${failures.map((result) => result.name).join('; ')}`;
};

/** `smoke-20260101T120000Z`: unique enough per run, and says where the token came from. */
const tokenName = (now: Date): string => {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}/, '')
    .replace(/[-:]/g, '');
  return `smoke-${stamp}`;
};

/** What a group of checks uses of the run. */
interface Run {
  readonly send: (method: string, path: string, request?: Omit<ProbeRequest, 'method' | 'url'>) => Promise<Outcome>;
  readonly record: (result: CheckResult) => void;
  /** A credential no printed line may show from now on. */
  readonly keepSecret: (secret: string) => void;
  /** Prints a line that is no check's result (a skipped group). */
  readonly say: (line: string) => void;
}

const bearer = (credential: string) => ({ Authorization: `Bearer ${credential}` });

/**
 * The per-credential limit's answer, asked for with the probe header so that no real limit is
 * tripped: 429, the contract's body, and a `Retry-After` of whole seconds. It shows the answer's
 * shape, not that the limit counts.
 */
const checkRateLimitAnswer = async (run: Run): Promise<void> => {
  const path = samplePath(readRoute);
  const name = `${readRoute.method} ${path} with ${RATE_LIMIT_PROBE_HEADER}: ${RATE_LIMIT_PROBE_VALUE} (the per-credential limit's answer)`;
  const outcome = await run.send(readRoute.method, path, {
    headers: { [RATE_LIMIT_PROBE_HEADER]: RATE_LIMIT_PROBE_VALUE },
  });
  const expected = { status: 429, body: JSON.parse(RATE_LIMITED_BODY) as unknown };
  const shape = checkFixed(name, outcome, [expected], true);
  if (!shape.passed || !('answer' in outcome)) {
    run.record(shape);
    return;
  }
  const retryAfter = outcome.answer.headers.get('retry-after');
  run.record(
    retryAfter !== null && /^[1-9]\d*$/.test(retryAfter)
      ? passed(name, `429, Retry-After ${retryAfter}`)
      : failed(name, `expected a Retry-After of whole seconds, at least 1, got ${retryAfter ?? 'none'}`),
  );
};

/** The first route of each path, with every method its path serves: where a preflight is answered. */
const preflightTargets = (): { contract: RouteContract; methods: readonly string[] }[] =>
  routes
    .filter((contract, index) => routes.findIndex((other) => other.path === contract.path) === index)
    .map((contract) => ({ contract, methods: methodsByPath.get(contract.path) ?? [contract.method] }));

/**
 * Every route refuses a request without credentials (a sign-in, which takes none, refuses its sample's
 * proof for a service account that is not there: its one 401); answers the origin the answers grant, if any.
 */
const checkWithoutCredentials = async (run: Run): Promise<string | undefined> => {
  let granted: string | undefined;
  for (const contract of routes) {
    const path = samplePath(contract);
    const outcome = await run.send(
      contract.method,
      path,
      contract.signIn ? { json: contract.sample(SAMPLE_WORLD).body } : undefined,
    );
    granted ??= grantedOrigin(outcome);
    run.record(
      checkFixed(
        `${contract.method} ${path} without credentials`,
        outcome,
        contract.signIn ? IDENTITY_NOT_ACCEPTED : UNAUTHORIZED,
        true,
      ),
    );
  }
  const readPath = samplePath(readRoute);
  const forged = await run.send(readRoute.method, readPath, { headers: bearer(FORGED_TOKEN) });
  run.record(checkFixed(`${readRoute.method} ${readPath} with a forged token`, forged, UNAUTHORIZED, true));
  return granted;
};

/** The origin of the dashboard the API's document names (`DASHBOARD_URL_FIELD`), when it names one. */
const documentedDashboardOrigin = async (run: Run): Promise<string | undefined> => {
  const outcome = await run.send('GET', API_DOCUMENT_PATH);
  const document = 'answer' in outcome && outcome.answer.status === 200 ? outcome.answer.json : undefined;
  const named =
    typeof document === 'object' && document !== null
      ? (document as Record<string, unknown>)[DASHBOARD_URL_FIELD]
      : undefined;
  return typeof named === 'string' && URL.canParse(named) ? new URL(named).origin : undefined;
};

/**
 * Every route path answers the dashboard's preflight. A dashboard on the API's own origin (`npm start`
 * without `DASHBOARD_ORIGIN`) makes no cross-origin request, so there is no preflight to check: the
 * run says so and skips them.
 */
const checkPreflights = async (run: Run, origin: string | undefined, apiOrigin: string): Promise<void> => {
  if (origin === apiOrigin) {
    run.say(
      `skip CORS preflights: the dashboard is on the API's own origin (${origin}), so a browser sends none; pass --origin <DashboardUrl> to check one`,
    );
    return;
  }
  if (origin === undefined) {
    run.record(
      failed(
        'CORS preflight',
        'the API names no dashboard origin in its answers (Access-Control-Allow-Origin); pass --origin <DashboardUrl> to check one',
      ),
    );
    return;
  }
  for (const { contract, methods } of preflightTargets()) {
    const path = samplePath(contract);
    const outcome = await run.send('OPTIONS', path, {
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': contract.method,
        'Access-Control-Request-Headers': CORS_REQUEST_HEADERS.join(',').toLowerCase(),
      },
    });
    run.record(checkPreflight(`OPTIONS ${path} preflight from ${origin}`, outcome, origin, methods));
  }
};

/** Creates a one-day token with the session, uses it, revokes it and sees its next use refused. */
const checkTokenLifecycle = async (run: Run, session: string, now: Date): Promise<void> => {
  const createName = `${createTokenRoute.method} ${createTokenRoute.path} with the session`;
  const scopes = readRoute.tokenScope === null ? [] : [readRoute.tokenScope];
  const created = await run.send(createTokenRoute.method, createTokenRoute.path, {
    headers: bearer(session),
    json: { name: tokenName(now), scopes, ttlDays: 1 },
  });
  const answer = 'answer' in created ? created.answer : undefined;
  const parsed =
    answer?.status === createTokenRoute.success.status
      ? createTokenRoute.schemas().response.safeParse(answer.json)
      : undefined;
  if (!parsed?.success) {
    const { detail } = checkSuccess(createName, created, createTokenRoute);
    const hint = answer?.status === 401 ? ' (is SMOKE_SESSION a current ID token of the stack’s issuer?)' : '';
    run.record(failed(createName, `${detail}${hint}`));
    return;
  }
  const token = parsed.data.data;
  run.keepSecret(token.rawToken);
  const expires = token.expiresAt ?? 'never';
  run.record(
    passed(
      createName,
      `${createTokenRoute.success.status}, token ${token.id} "${token.name}" (${token.displayPrefix}…), expires ${expires}`,
    ),
  );

  const readPath = samplePath(readRoute);
  const used = await run.send(readRoute.method, readPath, { headers: bearer(token.rawToken) });
  run.record(checkSuccess(`${readRoute.method} ${readPath} with the new token`, used, readRoute));

  const revokePath = fillPath(revokeTokenRoute, { id: encodeURIComponent(token.id) });
  const revoked = await run.send(revokeTokenRoute.method, revokePath, { headers: bearer(session) });
  const revocation = checkSuccess(
    `${revokeTokenRoute.method} ${revokePath} with the session`,
    revoked,
    revokeTokenRoute,
  );
  if (!revocation.passed) {
    const left = `token ${token.id} stays usable until ${expires}: revoke it in the dashboard`;
    run.record({ ...revocation, detail: `${revocation.detail}; ${left}` });
    return;
  }
  run.record(revocation);

  const refused = await run.send(readRoute.method, readPath, { headers: bearer(token.rawToken) });
  run.record(checkFixed(`${readRoute.method} ${readPath} with the revoked token`, refused, UNAUTHORIZED, false));
};

/**
 * Runs every check in order, printing each line as it ends and the summary last, and answers the
 * results. Never prints the session or a raw token: they go only into Authorization headers, and
 * every printed line is scrubbed of them besides.
 */
export const runSmoke = async (options: SmokeOptions): Promise<CheckResult[]> => {
  const { apiUrl, session, timeoutMs } = options;
  const secrets = session ? [session] : [];
  const print = (line: string) =>
    options.print(secrets.reduce((text, secret) => text.replaceAll(secret, '[redacted]'), line));
  const results: CheckResult[] = [];
  const run: Run = {
    send: (method, path, request = {}) => probe({ method, url: `${apiUrl}${path}`, ...request }, timeoutMs),
    record: (result) => {
      results.push(result);
      print(formatResult(result));
    },
    keepSecret: (secret) => {
      secrets.push(secret);
    },
    say: print,
  };

  const granted = await checkWithoutCredentials(run);
  const origin = options.origin ?? (await documentedDashboardOrigin(run)) ?? granted;
  await checkPreflights(run, origin, new URL(apiUrl).origin);
  const unknown = await run.send('GET', UNKNOWN_PATH);
  run.record(checkFixed(`GET ${UNKNOWN_PATH} (unknown path)`, unknown, NOT_FOUND, true));
  await checkRateLimitAnswer(run);
  if (session === undefined) {
    print('skip token lifecycle: set SMOKE_SESSION=<ID token> to create, use and revoke a token');
  } else {
    await checkTokenLifecycle(run, session, options.now);
  }

  print(summaryLine(results, apiUrl));
  return results;
};
