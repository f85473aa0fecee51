/**
 * What the bench's processes share: the environment a bundle reads at load, the authorizer's event, and
 * a KMS that answers from memory.
 */
import { Readable } from 'node:stream';

/** The KMS key the secret functions wrap data keys under, as the stack names it to them; never called. */
export const BENCH_KEY_ID = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';

/**
 * Environment a bundle reads at load; no value reaches AWS (nothing is called). The authorizer's
 * `ROUTE_RULES` is not here: bench/run.ts sets it from the route list, which reads contract/routes/
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
  // Data keys wrapped by KMS, as deployed (without it the functions would wrap them with a local key).
  SECRETS_KEY_ID: BENCH_KEY_ID,
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

/** The bench project's data key: its plaintext, and its wrapped form as the project item stores it. */
export const BENCH_DATA_KEY = {
  plaintext: new Uint8Array(32).fill(7),
  wrapped: new Uint8Array(Buffer.from('bench data key, wrapped by a KMS that answers from memory')),
};

/**
 * An SDK transport standing in for KMS, in memory: Decrypt answers the bench's data key whatever it is
 * given, GenerateDataKey a new one (the same). `calls` lists the operations asked, in order, so that a
 * harness can tell how many KMS requests an invocation makes. Set as a KMS client's `requestHandler`
 * before its first send.
 */
export const cannedKms = () => {
  const calls: string[] = [];
  const key = Buffer.from(BENCH_DATA_KEY.plaintext).toString('base64');
  const answers: Record<string, Buffer> = {
    Decrypt: Buffer.from(
      JSON.stringify({ KeyId: BENCH_KEY_ID, Plaintext: key, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' }),
    ),
    GenerateDataKey: Buffer.from(
      JSON.stringify({
        KeyId: BENCH_KEY_ID,
        Plaintext: key,
        CiphertextBlob: Buffer.from(BENCH_DATA_KEY.wrapped).toString('base64'),
      }),
    ),
  };
  const transport = {
    handle: async (request: { headers: Record<string, string> }) => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      calls.push(operation);
      const payload = answers[operation];
      if (!payload) throw new Error(`the bench's KMS answers no ${operation}`);
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'content-length': String(payload.length) },
          body: Readable.from([payload]),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  return { calls, transport };
};
