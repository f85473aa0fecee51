/**
 * Work per request: the DynamoDB calls and the capacity each route and the authorizer consume, measured
 * through the local gateway against DynamoDB Local behind a counting proxy, and compared with the floors
 * of `measure/work-floors.ts`.
 *
 * How the authorizer's work is told from the route's: the gateway runs the real authorizer, then the
 * route's handler, each wrapped here in `proxy.withPhase('authorizer' | 'route')`. The phase rides the
 * async context (AsyncLocalStorage) into every DynamoDB request the SDK sends, and the proxy pairs each
 * request it receives with the phase it was sent in (see `measure/dynamo-proxy.ts`). So a call
 * is attributed by who made it, not by when it arrived: a write the authorizer starts and does not await
 * still counts as the authorizer's. Any call made outside both phases fails the measurement.
 *
 * Use from jest (`test/integration/work-per-request.test.ts`), in-process with `measureWork` or
 * `measureWorkOn(endpoint, table)`, or as a script: `tsx measure/work.ts [out.json] [--endpoint URL --table
 * NAME]` measures (starting a DynamoDB Local of its own unless given one), prints the table and exits
 * non-zero if a request spends more than its floor.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { type RouteContract, SAMPLE_SECRET, SAMPLE_SHARE, SAMPLE_WORLD, type SampleWorld } from '@contract/route';
import { routes } from '@contract/routes';
import type { FloorCall } from '@contract/work';
import { callerRoleArn } from '@lambdas/domain/aws-principals';
import { setClock } from '@lambdas/domain/clock';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { signedCallerIdentityRequest } from '../client/aws-sign-in';
import { type GatewayHandlers, handleRequest, loadHandlers } from '../local/gateway';
import { type LocalService, startLocalService } from '../local/service';
import { type CountingProxy, type ForwardedCall, startCountingProxy } from './dynamo-proxy';
import { floorFor, floorTotals } from './work-floors';

/** One DynamoDB call a request made. */
export interface WorkCall {
  readonly operation: string;
  /** `ConsistentRead` of a GetItem or Query. */
  readonly consistent?: boolean;
  readonly index?: string;
  /** Actions of a TransactWriteItems. */
  readonly actions?: readonly string[];
  /** Items or partitions touched. */
  readonly targets: readonly string[];
  /** Capacity units consumed (read + write). */
  readonly capacity: number;
  readonly read: number;
  readonly write: number;
  /** `reported` by DynamoDB Local, or `computed` from DynamoDB's rules (see the proxy). */
  readonly source: 'reported' | 'computed';
  /** DynamoDB Local's own figure where `source` is `computed` (for comparison). */
  readonly localReported?: number;
}

/** The DynamoDB work of one part of one request. */
export interface Work {
  readonly calls: readonly WorkCall[];
  readonly totalRead: number;
  readonly totalWrite: number;
}

/** One measured request part, with the floor it is held to. */
export interface Measurement {
  /** For people: what was sent, e.g. `GET /api/v1/tokens (token)`. */
  readonly name: string;
  /** The floor it is held to: a route's handler or an authorizer case of `measure/work-floors.ts`. */
  readonly subject: string;
  readonly credential: 'token' | 'session' | 'malformed';
  /** HTTP status the client saw. */
  readonly status: number;
  readonly work: Work;
}

/** A route measured through the gateway: the route's work, and the authorizer's in the same request. */
export interface RouteMeasurement extends Measurement {
  readonly route: string;
  readonly authorizer: Work;
}

/** Everything `measureWork` found. */
export interface WorkReport {
  /** The authorizer's own cases: first and steady use of a token and a session, a denied route. */
  readonly authorizer: readonly Measurement[];
  /** Every route of the route table, with an API token (admin) and with a session where allowed. */
  readonly routes: readonly RouteMeasurement[];
  /** Malformed credentials: all work of the request (there should be none). */
  readonly malformed: readonly Measurement[];
}

/** A running local service whose DynamoDB endpoint is `proxy`. */
export interface WorkTarget {
  readonly service: LocalService;
  readonly proxy: CountingProxy;
}

const SOURCE_IP = '127.0.0.1';

const LAST_USED_INTERVAL_MS = 60_000;

const toWork = (calls: readonly ForwardedCall[]): Work => {
  const list = calls.map((call): WorkCall => {
    if (!call.capacity) {
      throw new Error(`no consumed capacity for ${call.operation} ${call.targets.join(', ')} (status ${call.status})`);
    }
    return {
      operation: call.operation,
      ...(call.consistent !== undefined && { consistent: call.consistent }),
      ...(call.index && { index: call.index }),
      ...(call.actions && { actions: call.actions }),
      targets: call.targets,
      capacity: call.capacity.total,
      read: call.capacity.read,
      write: call.capacity.write,
      source: call.capacity.source,
      ...(call.capacity.source === 'computed' && { localReported: call.capacity.reported }),
    };
  });
  return {
    calls: list,
    totalRead: list.reduce((sum, call) => sum + call.read, 0),
    totalWrite: list.reduce((sum, call) => sum + call.write, 0),
  };
};

/** The gateway's handlers, each run in its phase so the proxy can attribute every call it causes. */
const phased = (base: GatewayHandlers, proxy: CountingProxy): GatewayHandlers => ({
  authorizer: (event: APIGatewayRequestAuthorizerEvent, context: Context) =>
    proxy.withPhase('authorizer', () => base.authorizer(event, context)),
  routes: new Map(
    [...base.routes].map(([route, handler]) => [
      route,
      (event: APIGatewayProxyEvent, context: Context) => proxy.withPhase('route', () => handler(event, context)),
    ]),
  ),
});

interface SendOptions {
  readonly token?: string;
  readonly json?: unknown;
  /** Raw Authorization header values (instead of `token`). */
  readonly authorization?: readonly string[];
}

interface Sent {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
  readonly body: any;
  readonly authorizer: Work;
  readonly route: Work;
}

/** The credentials a route's work is measured with, each in a world of its own: a token where one is allowed, and a session. */
export const measuredCredentials = (route: RouteContract): readonly ('token' | 'session')[] =>
  route.tokenScope === null ? ['session'] : ['token', 'session'];

/**
 * Drives every route of the route table once in a realistic state and returns the work of each, with
 * the authorizer's separately. The service must use `proxy` as its DynamoDB endpoint, and the handlers
 * must be the ones `loadHandlers()` gives in this process (the clock is moved through
 * `@lambdas/domain/clock` to reach the authorizer's next minute).
 */
export const measureWork = async ({ service, proxy }: WorkTarget): Promise<WorkReport> => {
  const handlers = phased(loadHandlers(), proxy);

  const send = async (method: string, path: string, options: SendOptions = {}): Promise<Sent> => {
    const authorization = options.authorization ?? (options.token === undefined ? [] : [`Bearer ${options.token}`]);
    const headers: Record<string, string> = { Host: '127.0.0.1', 'User-Agent': 'work-bench' };
    const multiValueHeaders: Record<string, string[]> = {};
    if (authorization.length) {
      headers.Authorization = authorization[authorization.length - 1] ?? '';
      multiValueHeaders.Authorization = [...authorization];
    }
    const body = options.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(options.json));
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    for (const [name, value] of Object.entries(headers)) multiValueHeaders[name] ??= [value];

    await proxy.settled();
    const start = proxy.calls.length;
    const url = new URL(path, 'http://local');
    const result = await handleRequest(
      {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        multiValueHeaders,
        body,
        sourceIp: SOURCE_IP,
      },
      handlers,
    );
    await proxy.settled();
    const calls = proxy.calls.slice(start);
    const stray = calls.filter((call) => call.phase !== 'authorizer' && call.phase !== 'route');
    if (stray.length) {
      throw new Error(`${method} ${path}: ${stray.length} DynamoDB call(s) made outside the authorizer and the route`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(result.body);
    } catch {
      parsed = undefined;
    }
    return {
      status: result.statusCode,
      body: parsed,
      authorizer: toWork(calls.filter((call) => call.phase === 'authorizer')),
      route: toWork(calls.filter((call) => call.phase === 'route')),
    };
  };

  const expectStatus = (sent: Sent, status: number, what: string): Sent => {
    if (sent.status !== status) {
      throw new Error(`${what}: expected ${status}, got ${sent.status} ${JSON.stringify(sent.body)}`);
    }
    return sent;
  };

  const run = randomUUID().slice(0, 8);
  const owner = `work-owner-${run}@example.com`;
  const session = await service.idp.issue(owner);
  const authorizer: Measurement[] = [];
  const routeMeasurements: RouteMeasurement[] = [];
  const malformed: Measurement[] = [];

  const authorizerCase = (name: string, subject: string, credential: 'token' | 'session', sent: Sent) => {
    authorizer.push({ name, subject, credential, status: sent.status, work: sent.authorizer });
  };

  // The session's first request records the profile; the next only reads it (and the claim).
  authorizerCase(
    'session, first request (records the profile)',
    'authorizer/session-record-profile',
    'session',
    expectStatus(await send('GET', '/api/v1/projects', { token: session }), 200, 'first session request'),
  );
  authorizerCase(
    'session, steady state',
    'authorizer/session',
    'session',
    expectStatus(await send('GET', '/api/v1/projects', { token: session }), 200, 'second session request'),
  );

  // The owner's admin token: its first use records lastUsedAt, its second does not; a minute later the
  // next use records it again.
  const minted = expectStatus(
    await send('POST', '/api/v1/tokens', { token: session, json: { name: 'work', scopes: ['admin'] } }),
    201,
    'token create',
  );
  const apiToken = String(minted.body.data.rawToken);
  authorizerCase(
    'token, first use (records lastUsedAt)',
    'authorizer/token-record-use',
    'token',
    expectStatus(await send('GET', '/api/v1/tokens', { token: apiToken }), 200, 'first token use'),
  );
  authorizerCase(
    'token, steady state',
    'authorizer/token',
    'token',
    expectStatus(await send('GET', '/api/v1/tokens', { token: apiToken }), 200, 'second token use'),
  );
  setClock({ now: () => new Date(Date.now() + LAST_USED_INTERVAL_MS + 1_000) });
  try {
    authorizerCase(
      'token, a minute later (records lastUsedAt)',
      'authorizer/token-record-use',
      'token',
      expectStatus(await send('GET', '/api/v1/tokens', { token: apiToken }), 200, 'token use a minute later'),
    );
    authorizerCase(
      'token, again within that minute',
      'authorizer/token',
      'token',
      expectStatus(await send('GET', '/api/v1/tokens', { token: apiToken }), 200, 'token use within the minute'),
    );
  } finally {
    setClock();
  }
  authorizerCase(
    'token on a session-only route (403)',
    'authorizer/token-record-denial',
    'token',
    expectStatus(
      await send('POST', '/api/v1/tokens', { token: apiToken, json: { name: 'x', scopes: ['admin'] } }),
      403,
      'token create with a token',
    ),
  );

  /**
   * Whether a route's sample names the project the caller was added to: only such a world makes it, two
   * requests that every other route's world would make for nothing.
   */
  const namesJoinedProject = (route: RouteContract): boolean =>
    route.sample(SAMPLE_WORLD).params?.projectId === SAMPLE_WORLD.joinedProjectId;

  /**
   * A fresh world for one route's request, as its contract's sample expects it (`SampleWorld`): an
   * owner of its own (so that no route's lists grow with the routes measured before it, and a delete of
   * the sample secret takes it from no other route's world) with a session and an admin token already
   * used once, the owner's project with one other member and its sample secret at version 1, a spare
   * token of the owner's, a share of the owner's, another signed-in user, an open change request of
   * the member's and one of the owner's, a service account, and, for a route whose sample names it, the member's own
   * project, to which they added the owner (not opened yet), and a webhook of the owner's project.
   */
  const newWorld = async (
    route: RouteContract,
  ): Promise<{ world: SampleWorld; credentials: Record<'token' | 'session', string> }> => {
    const tag = randomUUID().slice(0, 8);
    const ownerEmail = `work-owner-${tag}@example.com`;
    const worldSession = await service.idp.issue(ownerEmail);
    const memberEmail = `work-member-${tag}@example.com`;
    const otherEmail = `work-other-${tag}@example.com`;
    const memberSession = await service.idp.issue(memberEmail);
    for (const session of [memberSession, await service.idp.issue(otherEmail)]) {
      expectStatus(await send('GET', '/api/v1/projects', { token: session }), 200, 'sign-in');
    }
    const created = await send('POST', '/api/v1/projects', { token: worldSession, json: { name: 'work' } });
    const projectId = String(expectStatus(created, 201, 'project create').body.data.projectId);
    const joinedProjectId = namesJoinedProject(route)
      ? await (async () => {
          const joined = await send('POST', '/api/v1/projects', { token: memberSession, json: { name: 'joined' } });
          const id = String(expectStatus(joined, 201, 'joined project create').body.data.projectId);
          expectStatus(
            await send('POST', `/api/v1/projects/${id}/members`, {
              token: memberSession,
              json: { email: ownerEmail, role: 'member' },
            }),
            200,
            'owner added to the joined project',
          );
          return id;
        })()
      : SAMPLE_WORLD.joinedProjectId;
    expectStatus(
      await send('POST', `/api/v1/projects/${projectId}/members`, {
        token: worldSession,
        json: { email: memberEmail, role: 'member' },
      }),
      200,
      'member add',
    );
    const token = (name: string) =>
      send('POST', '/api/v1/tokens', { token: worldSession, json: { name, scopes: ['admin'] } });
    const spare = await token('spare');
    // The secret the secret routes' samples name, at version 1: its write also stores the project's data
    // key, so a measured write takes the usual path of a project that has one.
    expectStatus(
      await send(
        'PUT',
        `/api/v1/projects/${projectId}/environments/${SAMPLE_SECRET.environment}/secrets/${SAMPLE_SECRET.name}`,
        {
          token: worldSession,
          json: { value: SAMPLE_SECRET.value },
        },
      ),
      201,
      'secret write',
    );
    // The share the share routes' samples name; also the owner's first, so a measured create updates
    // the share slots, as every create but a person's first does.
    const shared = await send('POST', '/api/v1/shares', {
      token: worldSession,
      json: { ciphertext: SAMPLE_SHARE.ciphertext, maxViews: SAMPLE_SHARE.maxViews },
    });
    const shareId = String(expectStatus(shared, 201, 'share create').body.data.id);
    // The change requests the change-request routes' samples name: the member's, which the caller may
    // approve, reject or apply, and the caller's own, which the caller may cancel.
    const propose = async (proposer: string, name: string) => {
      const proposed = await send(
        'POST',
        `/api/v1/projects/${projectId}/environments/${SAMPLE_SECRET.environment}/change-requests`,
        { token: proposer, json: { set: { [name]: 'proposed' } } },
      );
      return String(expectStatus(proposed, 201, 'change request').body.data.id);
    };
    const changeRequestId = await propose(memberSession, 'MEMBER_PROPOSED');
    const ownChangeRequestId = await propose(worldSession, 'OWNER_PROPOSED');
    // The service account the service-account routes' samples name, reading the sample secret's environment.
    const madeAccount = await send('POST', `/api/v1/projects/${projectId}/service-accounts`, {
      token: worldSession,
      json: { name: 'work', access: { [SAMPLE_SECRET.environment]: 'read' } },
    });
    const serviceAccountId = String(expectStatus(madeAccount, 201, 'service account create').body.data.id);
    // The webhook the webhook routes' samples name, made only for a route whose sample names one.
    const webhookId =
      route.sample(SAMPLE_WORLD).params?.webhookId === undefined
        ? SAMPLE_WORLD.webhookId
        : String(
            expectStatus(
              await send('POST', `/api/v1/projects/${projectId}/webhooks`, {
                token: worldSession,
                json: { url: 'https://203.0.114.10/hooks/work', events: ['secret.*'] },
              }),
              201,
              'webhook create',
            ).body.data.id,
          );
    // The service account's token the token routes' samples name, made only for a route whose sample
    // names one; also its first, so a measured create updates its slots, as every create but the first does.
    const serviceAccountTokenId =
      route.sample(SAMPLE_WORLD).params?.serviceAccountId === undefined || !route.path.includes('/tokens')
        ? SAMPLE_WORLD.serviceAccountTokenId
        : String(
            expectStatus(
              await send('POST', `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}/tokens`, {
                token: worldSession,
                json: { name: 'work', ttlDays: 30 },
              }),
              201,
              'service account token create',
            ).body.data.id,
          );
    // The trust rules the trust-rule routes' and the sign-ins' samples need, made only for those routes:
    // one that trusts the local workload issuer's tokens for a subject, and one that trusts the STS
    // stand-in's role; the sign-ins' proofs are then a token of that issuer and a request signed by that key.
    const needsRules = route.path.includes('/trust-rules') || route.signIn === true;
    const rules = `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}/trust-rules`;
    const addRule = async (json: unknown) =>
      String(expectStatus(await send('POST', rules, { token: worldSession, json }), 201, 'trust rule').body.data.id);
    const workloadSubject = 'repo:acme/app:ref:refs/heads/main';
    const trustRuleId = needsRules
      ? await addRule({
          kind: 'oidc',
          issuer: service.workload.issuer,
          audience: 'secrets-service',
          subject: workloadSubject,
        })
      : SAMPLE_WORLD.trustRuleId;
    if (needsRules) await addRule({ kind: 'aws', principals: [callerRoleArn(service.sts.key.arn)] });
    const workloadToken = needsRules
      ? await service.workload.issue({ sub: workloadSubject, aud: 'secrets-service' })
      : SAMPLE_WORLD.workloadToken;
    const awsSignInRequest = needsRules
      ? await signedCallerIdentityRequest({ credentials: service.sts.key, service: '127.0.0.1' })
      : SAMPLE_WORLD.awsSignInRequest;
    const worldToken = String(expectStatus(await token('work'), 201, 'world token').body.data.rawToken);
    // Its first use records lastUsedAt; the measured request is then a steady use.
    expectStatus(await send('GET', '/api/v1/tokens', { token: worldToken }), 200, 'world token use');
    return {
      world: {
        projectId,
        joinedProjectId,
        tokenId: String(expectStatus(spare, 201, 'spare token').body.data.id),
        memberEmail,
        otherEmail,
        shareId,
        changeRequestId,
        ownChangeRequestId,
        serviceAccountId,
        serviceAccountTokenId,
        trustRuleId,
        workloadToken,
        awsSignInRequest,
        webhookId,
      },
      credentials: { token: worldToken, session: worldSession },
    };
  };

  for (const route of routes) {
    for (const credential of measuredCredentials(route)) {
      const { world, credentials } = await newWorld(route);
      const { params, query, body } = route.sample(world);
      const search = query === undefined ? '' : `?${new URLSearchParams(query)}`;
      const path = `${route.path.replace(/\{(\w+)\}/g, (_match, name: string) => params?.[name] ?? '')}${search}`;
      const name = `${route.method} ${route.path} (${credential})`;
      const sent = expectStatus(
        await send(route.method, path, { token: credentials[credential], json: body }),
        route.success.status,
        name,
      );
      routeMeasurements.push({
        name,
        subject: route.handler,
        route: `${route.method} ${route.path}`,
        credential,
        status: sent.status,
        work: sent.route,
        authorizer: sent.authorizer,
      });
    }
  }

  // Malformed credentials: refused before any database call.
  const badChecksum = `${apiToken.slice(0, -1)}${apiToken.endsWith('A') ? 'B' : 'A'}`;
  const malformedCases: [string, readonly string[]][] = [
    ['no Authorization header', []],
    ['another scheme', [`Basic ${Buffer.from('a:b').toString('base64')}`]],
    ['two Authorization headers', [`Bearer ${apiToken}`, `Bearer ${apiToken}`]],
    ['token prefix only', ['Bearer svc_live_']],
    ['token too short', [`Bearer ${apiToken.slice(0, -2)}`]],
    ['token with a bad checksum', [`Bearer ${badChecksum}`]],
    ['token outside the alphabet', [`Bearer ${apiToken.slice(0, 12)}!${apiToken.slice(13)}`]],
    ['session that is not a JWT', ['Bearer not-a-jwt']],
  ];
  for (const [name, authorization] of malformedCases) {
    const sent = await send('GET', '/api/v1/tokens', { authorization });
    malformed.push({
      name,
      subject: 'authorizer/malformed',
      credential: 'malformed',
      status: sent.status,
      work: {
        calls: [...sent.authorizer.calls, ...sent.route.calls],
        totalRead: sent.authorizer.totalRead + sent.route.totalRead,
        totalWrite: sent.authorizer.totalWrite + sent.route.totalWrite,
      },
    });
  }

  return { authorizer, routes: routeMeasurements, malformed };
};

/** One way a measurement spends more than its floor. */
export interface WorkExcess {
  readonly measurement: string;
  readonly subject: string;
  readonly problem: string;
}

const EPSILON = 1e-9;

/**
 * Where `work` exceeds the floor of `subject`: a call the pattern does not need, more transaction actions,
 * a read that must be strongly consistent and is not, or more read or write units in total.
 */
export const excessOver = (measurement: string, subject: string, work: Work): WorkExcess[] => {
  const floor = floorFor(subject);
  const totals = floorTotals(floor);
  const problems: string[] = [];
  const unused: (FloorCall | undefined)[] = [...floor.calls];
  for (const call of work.calls) {
    const index = unused.findIndex((candidate) => candidate?.operation === call.operation);
    const match = index >= 0 ? unused[index] : undefined;
    if (!match) {
      problems.push(`${call.operation} ${call.targets.join(', ')} is not in the pattern`);
      continue;
    }
    unused[index] = undefined;
    if (
      (match.operation === 'GetItem' || match.operation === 'Query' || match.operation === 'BatchGetItem') &&
      match.consistent &&
      call.consistent !== true
    ) {
      problems.push(`${call.operation} ${call.targets.join(', ')} must be strongly consistent`);
    }
    if (match.operation === 'TransactWriteItems' && (call.actions?.length ?? 0) > match.actions.length) {
      problems.push(`TransactWriteItems has ${call.actions?.length} actions, the pattern ${match.actions.length}`);
    }
  }
  if (work.totalRead > totals.read + EPSILON) problems.push(`${work.totalRead} RRU > ${totals.read}`);
  if (work.totalWrite > totals.write + EPSILON) problems.push(`${work.totalWrite} WRU > ${totals.write}`);
  return problems.map((problem) => ({ measurement, subject, problem }));
};

/** Every excess in a report; empty when every request stays within its floor. */
export const checkWork = (report: WorkReport): WorkExcess[] => [
  ...report.authorizer.flatMap((m) => excessOver(`authorizer: ${m.name}`, m.subject, m.work)),
  ...report.routes.flatMap((m) => [
    ...excessOver(m.name, m.subject, m.work),
    ...excessOver(`authorizer of ${m.name}`, `authorizer/${m.credential}`, m.authorizer),
  ]),
  ...report.malformed.flatMap((m) => excessOver(`malformed: ${m.name}`, m.subject, m.work)),
];

const describeCalls = (work: Work): string =>
  work.calls.length
    ? work.calls
        .map((call) => {
          const detail =
            call.operation === 'TransactWriteItems'
              ? `(${call.actions?.join('+')})`
              : call.consistent === undefined
                ? ''
                : call.consistent
                  ? '(C)'
                  : '(E)';
          return `${call.operation}${detail}${call.index ? `@${call.index}` : ''} ${call.capacity}`;
        })
        .join(', ')
    : '-';

/** The report as a plain-text table: measured calls and units next to the floor's. */
export const formatWork = (report: WorkReport): string => {
  const rows = [
    ...report.authorizer.map((m) => ({ name: `authorizer: ${m.name}`, m })),
    ...report.routes.map((m) => ({ name: m.name, m })),
    ...report.malformed.map((m) => ({ name: `malformed: ${m.name}`, m })),
  ].map(({ name, m }) => {
    const floor = floorTotals(floorFor(m.subject));
    return [
      name,
      String(m.status),
      `${m.work.calls.length}/${floor.calls}`,
      `${m.work.totalRead}/${floor.read}`,
      `${m.work.totalWrite}/${floor.write}`,
      describeCalls(m.work),
    ];
  });
  const header = ['request', 'status', 'calls/min', 'RRU/min', 'WRU/min', 'calls (C strong, E eventual; units)'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
};

/** One figure for `bench/results.json`. */
export interface WorkResult {
  readonly name: string;
  readonly value: number;
  readonly unit: 'calls' | 'RRU' | 'WRU';
  readonly floor: number;
  /** value ÷ floor; 1 when both are 0; Infinity when only the floor is 0. */
  readonly ratio: number;
  readonly target: 1;
}

/** The report as `{name, value, unit, floor, ratio, target}` figures (target 1: no more than the floor). */
export const workResults = (report: WorkReport): WorkResult[] =>
  [
    ...report.authorizer.map((m) => ({ name: `work: authorizer, ${m.name}`, m })),
    ...report.routes.map((m) => ({ name: `work: ${m.name}`, m })),
  ].flatMap(({ name, m }) => {
    const floor = floorTotals(floorFor(m.subject));
    const figures: [WorkResult['unit'], number, number][] = [
      ['calls', m.work.calls.length, floor.calls],
      ['RRU', m.work.totalRead, floor.read],
      ['WRU', m.work.totalWrite, floor.write],
    ];
    return figures.map(([unit, value, least]) => ({
      name: `${name} ${unit}`,
      value,
      unit,
      floor: least,
      ratio: least === 0 ? (value === 0 ? 1 : Number.POSITIVE_INFINITY) : value / least,
      target: 1 as const,
    }));
  });

/**
 * Starts a counting proxy in front of `dynamoEndpoint` and the local service on it, measures, and stops
 * both. The table must exist. Handler modules read their environment once per process, so call this
 * before anything else in the process has loaded them.
 */
export const measureWorkOn = async (dynamoEndpoint: string, tableName: string): Promise<WorkReport> => {
  const proxy = await startCountingProxy(dynamoEndpoint);
  try {
    const service = await startLocalService({
      dynamoEndpoint: proxy.endpoint,
      tableName,
      port: 0,
      hosts: ['127.0.0.1'],
    });
    try {
      return await measureWork({ service, proxy });
    } finally {
      await service.close();
    }
  } finally {
    await proxy.close();
  }
};

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};

/**
 * `tsx measure/work.ts [out.json] [--endpoint URL --table NAME]`: against the DynamoDB given (the table
 * is created if missing), or a DynamoDB Local of its own. Writes `{report, results}` to `out.json`.
 */
const main = async (): Promise<void> => {
  process.env.LOG_LEVEL ??= 'silent';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.AWS_REGION ??= 'us-east-1';
  const { startDynamoDbLocal } = await import('../local/dynamodb-local');
  const { createTable } = await import('../local/create-table');
  const given = argument('--endpoint');
  const dynamo = given ? undefined : await startDynamoDbLocal();
  try {
    const endpoint = given ?? dynamo?.endpoint ?? '';
    const tableName = argument('--table') ?? 'secrets-service-work';
    await createTable(endpoint, tableName);
    const report = await measureWorkOn(endpoint, tableName);
    console.log(formatWork(report));
    const out = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
    if (out) writeFileSync(out, `${JSON.stringify({ report, results: workResults(report) }, null, 2)}\n`);
    const excess = checkWork(report);
    for (const { measurement, problem } of excess) console.error(`over the floor: ${measurement}: ${problem}`);
    process.exitCode = excess.length ? 1 : 0;
  } finally {
    await dynamo?.stop();
  }
};

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    // 1 means over a floor; anything else, that nothing was measured.
    process.exitCode = 2;
  });
}
