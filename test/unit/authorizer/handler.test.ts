import { ErrorText } from '@contract/errors';
import { routeRulesJson } from '@contract/route-table';
import {
  AUDIT_DENIAL_EVENTS_METRIC,
  AUTHORIZER_DECISION_DIMENSION,
  AUTHORIZER_DECISION_METRIC,
} from '@contract/service-metrics';
import { SessionExpiredError } from '@lambdas/authorizer/session-errors';
import { setClock } from '@lambdas/domain/clock';
import type { ServiceAccountRecord, TokenRecord } from '@lambdas/domain/records';
import { mintToken } from '@lambdas/domain/token-format';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { storedToken } from './stored-token';

/**
 * The deployed authorizer as API Gateway calls it: which Authorization header it reads, the result
 * each decision becomes, what it logs and counts, and the marks it leaves on a token (its last use,
 * a denial in its owner's trail). The table and the key set are replaced; the rules are
 * `authorize.test.ts`'s.
 */

const NOW = new Date('2026-11-29T12:00:00.000Z');
const minted = mintToken();
const stored = storedToken(minted, { lastUsedAt: '2099-01-01T00:00:00.000Z', ownerEmail: 'ada@example.com' });
const SERVICE_ACCOUNT_ID = 'sa_0123456789abcdefghij';
const serviceAccount: ServiceAccountRecord = {
  projectId: 'prj_A',
  serviceAccountId: SERVICE_ACCOUNT_ID,
  name: 'deploy-bot',
  description: null,
  access: { production: { level: 'read' } },
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: { userId: 'user-1', email: 'ada@example.com' },
};

/** The token the table holds for this file's requests, and its service account if it has one. */
let mockToken: TokenRecord | undefined = stored;
let mockServiceAccount: ServiceAccountRecord | undefined;
const mockGetToken = jest.fn(async (_tokenId: string) => mockToken);
const mockTouch = jest.fn(async (..._args: unknown[]) => undefined);
const mockRecordDenial = jest.fn(async (..._args: unknown[]) => true);
const mockVerifySession = jest.fn(async (..._args: unknown[]): Promise<unknown> => {
  throw new Error('no sessions in this test');
});

jest.mock('@lambdas/data/token-repository', () => ({ getTokenById: (tokenId: string) => mockGetToken(tokenId) }));
jest.mock('@lambdas/data/service-account-repository', () => ({ getServiceAccount: async () => mockServiceAccount }));
jest.mock('@lambdas/data/token-mark-repository', () => ({
  touchTokenLastUsed: (...args: unknown[]) => mockTouch(...args),
  recordTokenDenial: (...args: unknown[]) => mockRecordDenial(...args),
}));
jest.mock('@lambdas/data/user-repository', () => ({
  readSessionRecords: async () => ({ profile: undefined, claim: undefined }),
  recordSession: async () => true,
}));
jest.mock('@lambdas/authorizer/session-verifier', () => ({
  verifySession: (...args: unknown[]) => mockVerifySession(...args),
}));

// The handler reads its route rules when loaded, as the stack and the local runtime set them.
process.env.ROUTE_RULES = routeRulesJson();
const { authorizerHandler } = require('@lambdas/authorizer/handler') as typeof import('@lambdas/authorizer/handler');

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:123456789012:api/prod/GET/x';
const MEMBERS = '/api/v1/projects/{projectId}/members';
const SECRET = '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}';

interface EventParts {
  readonly sourceIp?: string;
  readonly resource?: string;
  readonly httpMethod?: string;
  readonly headers?: Record<string, string | undefined> | null;
  readonly multiValueHeaders?: Record<string, string[] | undefined> | null;
  readonly pathParameters?: Record<string, string>;
}

const bearer = `Bearer ${minted.rawToken}`;

/** A REQUEST authorizer event as API Gateway sends it: by default the token, from its address, on GET members. */
const event = ({
  sourceIp = '203.0.113.7',
  resource = MEMBERS,
  httpMethod = 'GET',
  headers = { Authorization: bearer, Accept: '*/*' },
  multiValueHeaders = { Authorization: [bearer], Accept: ['*/*'] },
  pathParameters = { projectId: 'prj_A' },
}: EventParts = {}) =>
  ({
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    resource,
    path: resource,
    httpMethod,
    headers,
    multiValueHeaders,
    pathParameters,
    requestContext: { requestId: 'r-1', identity: { sourceIp, userAgent: 'curl/8.5' } },
  }) as unknown as APIGatewayRequestAuthorizerEvent;

/** Runs the handler once: its result or the message it threw, and the JSON lines it wrote (logs, metrics). */
const run = async (
  input: APIGatewayRequestAuthorizerEvent,
  invoke: (
    input: APIGatewayRequestAuthorizerEvent,
  ) => Promise<APIGatewayAuthorizerResult | undefined> = authorizerHandler,
) => {
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(
      ...String(chunk)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    );
    return true;
  };
  // Powertools writes warnings to stderr, the rest to stdout.
  const spies = [jest.spyOn(process.stdout, 'write'), jest.spyOn(process.stderr, 'write')];
  for (const spy of spies) spy.mockImplementation(capture);
  try {
    return { result: await invoke(input), lines, thrown: undefined };
  } catch (error) {
    return { result: undefined, lines, thrown: (error as Error).message };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
};

const logLine = (lines: Record<string, unknown>[], message: string) => lines.find((line) => line.message === message);

/** The values of one metric in the EMF lines written, with the dimensions of each. */
const metricLines = (lines: Record<string, unknown>[], metric: string) => lines.filter((line) => metric in line);

const allow = {
  Version: '2012-10-17',
  Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: METHOD_ARN }],
};
const deny = {
  Version: '2012-10-17',
  Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: METHOD_ARN }],
};

beforeEach(() => {
  setClock({ now: () => NOW });
  mockToken = stored;
  mockServiceAccount = undefined;
  mockGetToken.mockClear();
  mockTouch.mockReset().mockResolvedValue(undefined);
  mockRecordDenial.mockReset().mockResolvedValue(true);
});
afterAll(() => setClock());

describe('the Authorization header', () => {
  it('is read whatever the case of its name, from the multi-value view', async () => {
    const { result } = await run(event({ multiValueHeaders: { AUTHORIZATION: [bearer] }, headers: null }));
    expect(result?.policyDocument).toEqual(allow);
  });

  it('is read from the single-value view when the multi-value view has none', async () => {
    for (const multiValueHeaders of [null, {}, { Authorization: undefined }]) {
      const { result } = await run(event({ multiValueHeaders, headers: { authorization: bearer, Accept: '*/*' } }));
      expect(result?.policyDocument).toEqual(allow);
    }
  });

  it('is refused when sent twice, even with the same value', async () => {
    const twice = event({ multiValueHeaders: { Authorization: [bearer], authorization: [bearer] } });
    expect((await run(twice)).thrown).toBe('Unauthorized');
  });

  it('is refused when absent, whatever other headers say', async () => {
    const none = event({ headers: { Authorization: undefined, Accept: bearer }, multiValueHeaders: null });
    const { thrown, lines } = await run(none);
    expect(thrown).toBe('Unauthorized');
    expect(logLine(lines, 'authorizer decision')).toMatchObject({
      outcome: 'invalid',
      rule: 'authorization-header-count',
    });
  });
});

describe('a route the rules do not name', () => {
  it('is refused as unauthorized, whatever the credential', async () => {
    const { thrown, lines } = await run(event({ resource: '/api/v1/nowhere' }));
    expect(thrown).toBe('Unauthorized');
    expect(logLine(lines, 'authorizer decision')).toMatchObject({ outcome: 'invalid', rule: 'unknown-route' });
  });
});

describe('the result API Gateway gets', () => {
  it('allows with the principal as context and the caller as principal id', async () => {
    const { result } = await run(event());
    expect(result).toEqual({
      principalId: 'user-1',
      policyDocument: allow,
      context: {
        kind: 'token',
        userId: 'user-1',
        scopes: 'read:secrets',
        tokenId: minted.tokenId,
        email: 'ada@example.com',
      },
    });
  });

  it('lets an expired token through with a context that holds no identity, for the route to answer 401', async () => {
    mockToken = { ...stored, expiresAt: NOW.toISOString() };
    const { result, lines } = await run(event());
    expect(result).toEqual({ principalId: 'expired', policyDocument: allow, context: { denial: 'expired' } });
    expect(logLine(lines, 'authorizer decision')).toMatchObject({ outcome: 'expired', rule: 'token-expired' });
  });

  it('lets an expired session through the same way, and records no denial', async () => {
    mockVerifySession.mockRejectedValueOnce(new SessionExpiredError('expired'));
    const { result } = await run(event({ headers: null, multiValueHeaders: { Authorization: ['Bearer a.b.c'] } }));
    expect(result).toEqual({ principalId: 'expired', policyDocument: allow, context: { denial: 'expired' } });
    expect(mockRecordDenial).not.toHaveBeenCalled();
  });

  it('denies a token used from another address with the wrong-IP text', async () => {
    const { result } = await run(event({ sourceIp: '203.0.113.8' }));
    expect(result).toEqual({ principalId: 'denied', policyDocument: deny, context: { error: ErrorText.wrongIp } });
  });

  it('throws Unauthorized for a token the table does not hold', async () => {
    mockToken = undefined;
    expect((await run(event())).thrown).toBe('Unauthorized');
  });

  it('throws another error when a dependency fails (API Gateway answers 503), and logs why', async () => {
    mockGetToken.mockRejectedValueOnce(new Error('DynamoDB down'));
    const { thrown, lines } = await run(event());
    expect(thrown).toBe('Service unavailable');
    expect(logLine(lines, 'authorizer dependency unavailable')).toMatchObject({
      level: 'WARN',
      requestId: 'r-1',
      route: `GET ${MEMBERS}`,
    });
    expect(logLine(lines, 'authorizer decision')).toBeUndefined();
  });
});

describe('the decision line and metric', () => {
  it('name the route, the outcome, the time taken and the principal of an allowed request, never a rule', async () => {
    const started = performance.now();
    const { lines } = await run(event());
    const elapsed = performance.now() - started;
    const line = logLine(lines, 'authorizer decision');
    expect(line).toMatchObject({
      level: 'INFO',
      requestId: 'r-1',
      route: `GET ${MEMBERS}`,
      outcome: 'allowed',
      principal: 'token',
      userId: 'user-1',
      tokenId: minted.tokenId,
    });
    expect(line).not.toHaveProperty('rule');
    expect(line?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(line?.latencyMs).toBeLessThanOrEqual(elapsed);
    // In milliseconds, to the microsecond.
    const micros = (line?.latencyMs as number) * 1000;
    expect(Math.abs(micros - Math.round(micros))).toBeLessThan(1e-6);
    const [counted] = metricLines(lines, AUTHORIZER_DECISION_METRIC);
    expect(counted).toMatchObject({ [AUTHORIZER_DECISION_METRIC]: 1, [AUTHORIZER_DECISION_DIMENSION]: 'allowed' });
  });

  it('name the rule of a refusal and no principal', async () => {
    const { lines } = await run(event({ sourceIp: '203.0.113.8' }));
    const line = logLine(lines, 'authorizer decision');
    expect(line).toMatchObject({ outcome: 'wrong_ip', rule: 'token-ip' });
    expect(line).not.toHaveProperty('principal');
    expect(line).not.toHaveProperty('userId');
  });

  it('count each refusal by what refused it', async () => {
    const outcome = async (input: APIGatewayRequestAuthorizerEvent) =>
      metricLines((await run(input)).lines, AUTHORIZER_DECISION_METRIC)[0]?.[AUTHORIZER_DECISION_DIMENSION];
    expect(await outcome(event({ sourceIp: '203.0.113.8' }))).toBe('wrong_ip');
    expect(await outcome(event({ httpMethod: 'POST' }))).toBe('scope');
    expect(await outcome(event({ headers: null, multiValueHeaders: null }))).toBe('invalid');
    mockToken = { ...stored, projects: [{ projectId: 'prj_B' }] };
    expect(await outcome(event())).toBe('resource');
    mockToken = { ...stored, expiresAt: '2026-01-01T00:00:00.000Z' };
    expect(await outcome(event())).toBe('expired');
  });
});

describe('a token limited to projects', () => {
  it('is judged on the event’s resource and path parameters: denied with its text', async () => {
    mockToken = { ...stored, projects: [{ projectId: 'prj_B' }] };
    const { result } = await run(event());
    expect(result?.context).toEqual({ error: ErrorText.tokenResource });
  });

  it('is allowed on a route of its project', async () => {
    mockToken = { ...stored, projects: [{ projectId: 'prj_A' }] };
    expect((await run(event())).result?.policyDocument).toEqual(allow);
  });
});

describe('the token’s last use', () => {
  it('is recorded when never recorded, with the instant, the interval and the address', async () => {
    mockToken = { ...stored, lastUsedAt: null };
    await run(event());
    expect(mockTouch.mock.calls).toEqual([[minted.tokenId, NOW, 60_000, '203.0.113.7']]);
  });

  it('is recorded once a minute at most', async () => {
    mockToken = { ...stored, lastUsedAt: new Date(NOW.getTime() - 59_999).toISOString() };
    await run(event());
    expect(mockTouch).not.toHaveBeenCalled();
    mockToken = { ...stored, lastUsedAt: new Date(NOW.getTime() - 60_000).toISOString() };
    await run(event());
    expect(mockTouch).toHaveBeenCalledTimes(1);
  });

  it('records the address in its canonical form', async () => {
    mockToken = { ...stored, lastUsedAt: null, boundIp: '2001:db8::1' };
    await run(event({ sourceIp: '2001:DB8:0:0::1' }));
    expect(mockTouch.mock.calls[0]?.[3]).toBe('2001:db8::1');
  });

  it('is not recorded for a refused token or a session', async () => {
    mockToken = { ...stored, lastUsedAt: null };
    await run(event({ sourceIp: '203.0.113.8' }));
    mockVerifySession.mockResolvedValueOnce({
      userId: 'user-2',
      email: 'bo@example.com',
      issuedAt: '2026-11-29T11:00:00.000Z',
    });
    const session = await run(event({ headers: null, multiValueHeaders: { Authorization: ['Bearer a.b.c'] } }));
    expect(session.result?.context).toMatchObject({ kind: 'session', userId: 'user-2' });
    expect(mockTouch).not.toHaveBeenCalled();
  });

  it('that fails to record is logged and never changes the answer', async () => {
    mockToken = { ...stored, lastUsedAt: null };
    mockTouch.mockRejectedValueOnce(new Error('throttled'));
    const { result, lines } = await run(event());
    expect(result?.policyDocument).toEqual(allow);
    expect(logLine(lines, 'lastUsedAt not recorded')).toMatchObject({ level: 'WARN', tokenId: minted.tokenId });
  });
});

describe('a refused genuine token', () => {
  const recorded = () => {
    const [denial, audit, now, interval] = mockRecordDenial.mock.calls[0] ?? [];
    return { denial, audit: audit as Record<string, unknown>, now, interval };
  };

  it('is recorded in its owner’s trail as token.denied, with the request and the reason', async () => {
    const { lines } = await run(event({ sourceIp: '203.0.113.8' }));
    const { denial, audit, now, interval } = recorded();
    expect(denial).toEqual({ tokenId: minted.tokenId, userId: 'user-1', ownerEmail: 'ada@example.com', reason: 'ip' });
    expect(now).toBe(NOW);
    expect(interval).toBe(60_000);
    expect(audit).toMatchObject({
      type: 'token.denied',
      time: NOW.toISOString(),
      actor: {
        type: 'user',
        id: 'user-1',
        userId: 'user-1',
        email: 'ada@example.com',
        via: 'token',
        tokenId: minted.tokenId,
      },
      target: { tokenId: minted.tokenId, projectId: null, serviceAccountId: null },
      sourceIp: '203.0.113.8',
      userAgent: 'curl/8.5',
      requestId: 'r-1',
      details: { reason: 'ip' },
    });
    expect(logLine(lines, 'token denial recorded')).toMatchObject({ tokenId: minted.tokenId, reason: 'ip' });
    expect(metricLines(lines, AUDIT_DENIAL_EVENTS_METRIC)[0]).toMatchObject({ [AUDIT_DENIAL_EVENTS_METRIC]: 1 });
  });

  it('of a service account is recorded in its project’s trail as service_account.denied', async () => {
    mockToken = { ...stored, userId: SERVICE_ACCOUNT_ID, serviceAccountProject: 'prj_A', ownerEmail: undefined };
    mockServiceAccount = serviceAccount;
    const { result } = await run(event({ resource: MEMBERS }));
    expect(result?.context).toEqual({ error: ErrorText.serviceAccountForbidden });
    const { denial, audit } = recorded();
    expect(denial).toMatchObject({ reason: 'route', serviceAccount: { projectId: 'prj_A', name: 'deploy-bot' } });
    expect(audit).toMatchObject({
      type: 'service_account.denied',
      actor: {
        type: 'serviceAccount',
        id: SERVICE_ACCOUNT_ID,
        name: 'deploy-bot',
        tokenId: minted.tokenId,
        subject: null,
      },
      target: { tokenId: minted.tokenId, projectId: 'prj_A', serviceAccountId: SERVICE_ACCOUNT_ID },
      details: { reason: 'route' },
    });
  });

  it('that expired is recorded too, and let through for the route’s 401', async () => {
    mockToken = { ...stored, expiresAt: '2026-01-01T00:00:00.000Z' };
    const { result } = await run(event());
    expect(result?.principalId).toBe('expired');
    expect(recorded().denial).toMatchObject({ reason: 'expired' });
  });

  it('is not logged or counted again within the interval', async () => {
    mockRecordDenial.mockResolvedValueOnce(false);
    const { result, lines } = await run(event({ sourceIp: '203.0.113.8' }));
    expect(result?.policyDocument).toEqual(deny);
    expect(logLine(lines, 'token denial recorded')).toBeUndefined();
    expect(metricLines(lines, AUDIT_DENIAL_EVENTS_METRIC)).toEqual([]);
  });

  it('that fails to record is logged and stays refused', async () => {
    mockRecordDenial.mockRejectedValueOnce(new Error('throttled'));
    const { result, lines } = await run(event({ sourceIp: '203.0.113.8' }));
    expect(result?.policyDocument).toEqual(deny);
    expect(logLine(lines, 'token denial not recorded')).toMatchObject({ level: 'WARN', tokenId: minted.tokenId });
  });

  it('is never recorded when the token is not genuine', async () => {
    mockToken = { ...stored, secretHash: mintToken().hash };
    expect((await run(event({ sourceIp: '203.0.113.8' }))).thrown).toBe('Unauthorized');
    expect(mockRecordDenial).not.toHaveBeenCalled();
  });
});

describe('a secret route', () => {
  it('is judged with the route’s rule from ROUTE_RULES: a read token reads, and may not write', async () => {
    const secretEvent = (httpMethod: string) =>
      event({
        resource: SECRET,
        httpMethod,
        pathParameters: { projectId: 'prj_A', environment: 'production', name: 'DB_URL' },
      });
    expect((await run(secretEvent('GET'))).result?.policyDocument).toEqual(allow);
    expect((await run(secretEvent('PUT'))).result?.context).toEqual({ error: ErrorText.scope });
  });
});

describe('the deployed handler', () => {
  const context = {
    functionName: 'authorizer',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:authorizer',
    memoryLimitInMB: '256',
    awsRequestId: 'c-1',
    getRemainingTimeInMillis: () => 10_000,
  };

  it('counts its first invocation as the authorizer’s cold start', async () => {
    // As Lambda starts a function on demand: Powertools counts a cold start only then.
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    let fresh: typeof import('@lambdas/authorizer/handler') | undefined;
    try {
      jest.isolateModules(() => {
        fresh = require('@lambdas/authorizer/handler');
      });
    } finally {
      delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    }
    const coldHandler = fresh?.authorizerHandler ?? authorizerHandler;
    const { lines } = await run(event(), coldHandler);
    expect(metricLines(lines, 'ColdStart')[0]).toMatchObject({ ColdStart: 1, function_name: 'authorizer' });
  });

  it('traces its invocation but never its answer, which names the user', async () => {
    const { tracer } = require('@lambdas/observability') as typeof import('@lambdas/observability');
    const { handler } = require('@lambdas/authorizer/handler') as typeof import('@lambdas/authorizer/handler');
    jest.spyOn(tracer, 'isTracingEnabled').mockReturnValue(true);
    jest.spyOn(tracer, 'getSegment').mockReturnValue(undefined);
    jest.spyOn(tracer, 'annotateColdStart').mockImplementation(() => undefined);
    jest.spyOn(tracer, 'addServiceNameAnnotation').mockImplementation(() => undefined);
    const addResponse = jest.spyOn(tracer, 'addResponseAsMetadata').mockImplementation(() => undefined);
    try {
      const { result } = await run(event(), (input) => handler(input, context as never));
      expect(result?.principalId).toBe('user-1');
      expect(addResponse).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
    }
  });
});
