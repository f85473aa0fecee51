import { ErrorText } from '@contract/errors';
import { routeRulesJson } from '@contract/route-table';
import { AUTHORIZER_DECISION_DIMENSION } from '@contract/service-metrics';
import { mintToken } from '@lambdas/domain/token-format';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { storedToken } from './stored-token';

const minted = mintToken();
const stored = storedToken(minted, { lastUsedAt: '2099-01-01T00:00:00.000Z' });
/** The token the table holds for this file's requests (a test may limit it to projects). */
let mockToken = stored;

// The handler's table and key set are replaced: this file checks what it logs and counts.
jest.mock('@lambdas/data/token-repository', () => ({ getTokenById: async () => mockToken }));
jest.mock('@lambdas/data/service-account-repository', () => ({ getServiceAccount: async () => undefined }));
jest.mock('@lambdas/data/token-mark-repository', () => ({ touchTokenLastUsed: async () => undefined }));
jest.mock('@lambdas/data/user-repository', () => ({
  getUserProfile: async () => undefined,
  recordUserProfile: async () => undefined,
}));
jest.mock('@lambdas/authorizer/session-verifier', () => ({
  verifySession: async () => Promise.reject(new Error('no sessions in this test')),
}));

// The handler reads its route rules when loaded, as the stack and the local runtime set them.
process.env.ROUTE_RULES = routeRulesJson();
const { authorizerHandler } = require('@lambdas/authorizer/handler') as typeof import('@lambdas/authorizer/handler');

const event = (sourceIp: string, resource = '/api/v1/projects/{projectId}/members', httpMethod = 'GET') =>
  ({
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api/prod/GET/x',
    resource,
    path: resource,
    httpMethod,
    headers: { Authorization: `Bearer ${minted.rawToken}` },
    multiValueHeaders: { Authorization: [`Bearer ${minted.rawToken}`] },
    pathParameters: { projectId: 'prj_A' },
    requestContext: { requestId: 'r-1', identity: { sourceIp } },
  }) as unknown as APIGatewayRequestAuthorizerEvent;

/** The `outcome` dimension of the decision line the handler logs for one event. */
const loggedOutcome = async (input: APIGatewayRequestAuthorizerEvent): Promise<unknown> => {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await authorizerHandler(input).catch(() => undefined);
  } finally {
    spy.mockRestore();
  }
  const decision = lines.map((line) => JSON.parse(line)).find((entry) => entry.message === 'authorizer decision');
  return decision?.[AUTHORIZER_DECISION_DIMENSION];
};

describe('the authorizer decision metric', () => {
  it('counts a token used from another address as wrong_ip, apart from scope denials', async () => {
    expect(await loggedOutcome(event('203.0.113.8'))).toBe('wrong_ip');
    expect(await loggedOutcome(event('203.0.113.7', '/api/v1/projects/{projectId}/members', 'POST'))).toBe('scope');
    expect(await loggedOutcome(event('203.0.113.7'))).toBe('allowed');
  });

  it('denies a token used from another address with the wrong-IP text', async () => {
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const result = await authorizerHandler(event('203.0.113.8'));
      expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
      expect(result.context).toEqual({ error: ErrorText.wrongIp });
    } finally {
      jest.restoreAllMocks();
    }
  });
});

describe('a token limited to projects', () => {
  afterEach(() => {
    mockToken = stored;
    jest.restoreAllMocks();
  });

  it('is judged on the event’s resource and path parameters: denied with its text and counted as resource', async () => {
    mockToken = { ...stored, projects: [{ projectId: 'prj_B' }] };
    expect(await loggedOutcome(event('203.0.113.7'))).toBe('resource');
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const result = await authorizerHandler(event('203.0.113.7'));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(result.context).toEqual({ error: ErrorText.tokenResource });
  });

  it('is allowed on a route of its project', async () => {
    mockToken = { ...stored, projects: [{ projectId: 'prj_A' }] };
    expect(await loggedOutcome(event('203.0.113.7'))).toBe('allowed');
  });
});
