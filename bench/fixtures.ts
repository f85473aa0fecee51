/** What the bench's processes share: the environment a bundle reads at load, and the authorizer's event. */

/**
 * Environment a bundle reads at load; no value reaches AWS (nothing is called). The authorizer's
 * `ROUTE_SCOPES` is not here: bench/run.ts sets it from the route list, which reads contract/routes/
 * from disk and so cannot be bundled, and its children inherit it.
 */
export const BUNDLE_ENV = {
  TABLE_NAME: 'bench',
  SESSION_ISSUER: 'https://issuer.example.com',
  SESSION_AUDIENCE: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  LOG_LEVEL: 'info',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** The REQUEST authorizer event of `GET /api/v1/tokens` with an API token, from the address it is bound to. */
export const benchAuthorizerEvent = (rawToken: string, sourceIp = '203.0.113.7') =>
  ({
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:000000000000:api/prod/GET/api/v1/tokens',
    resource: '/api/v1/tokens',
    path: '/api/v1/tokens',
    httpMethod: 'GET',
    headers: { Authorization: `Bearer ${rawToken}` },
    multiValueHeaders: { Authorization: [`Bearer ${rawToken}`] },
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'bench', identity: { sourceIp } },
  }) as never;
