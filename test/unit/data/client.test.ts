process.env.TABLE_NAME ??= 'unit';

import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { clientSettings, documentClient, dynamo, toItem } from '@lambdas/data/client';

describe('the DynamoDB client', () => {
  it('sends without the SDK logger middleware, which masks every input and output for no logger', () => {
    const steps = dynamo.middlewareStack.identify();
    expect(steps).not.toContain('loggerMiddleware - initialize');
    expect(steps).toContain('retryMiddleware - finalizeRequest');
  });

  it('signs requests exactly as it would with the SDK’s own hash (DynamoDB Local checks no signature)', async () => {
    const request = {
      method: 'POST',
      protocol: 'https:',
      hostname: 'dynamodb.us-east-1.amazonaws.com',
      path: '/',
      query: {},
      headers: {
        host: 'dynamodb.us-east-1.amazonaws.com',
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
        'amz-sdk-invocation-id': '2f1c0a52-6a0e-4d43-9d4f-3c1c2a1b0e11',
      },
      body: JSON.stringify({ TableName: 'service', Key: { PK: { S: 'TOKEN#abc' }, SK: { S: 'TOKEN' } } }),
    };
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
    // The signer each client builds for its requests: the service's settings, and the SDK's defaults.
    const signed = async (settings: DynamoDBClientConfig) => {
      const signer = await new DynamoDBClient({ region: 'us-east-1', credentials, ...settings }).config.signer();
      return signer.sign(structuredClone(request), { signingDate: new Date('2026-11-22T08:00:00Z') });
    };
    const ours = await signed(clientSettings);
    expect(ours.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261122\//);
    expect(ours.headers).toEqual((await signed({})).headers);
  });

  it('is the client the document client sends through: same settings, same middleware', () => {
    expect(documentClient.config).toBe(dynamo.config);
    expect(documentClient.middlewareStack).toBe(dynamo.middlewareStack);
    expect(documentClient.middlewareStack.identify()).toContain('unavailableAsDomainError - initialize');
  });
});

describe('toItem', () => {
  it('writes the fields that are set and leaves the undefined ones out', () => {
    expect(toItem({ PK: 'TOKEN#a', ttl: undefined, expiresAt: null, version: 2, slots: { a: 0 } })).toEqual({
      PK: { S: 'TOKEN#a' },
      expiresAt: { NULL: true },
      version: { N: '2' },
      slots: { M: { a: { N: '0' } } },
    });
  });

  it('refuses what it could not read back as written: a class instance, an unsafe number', () => {
    expect(() => toItem({ at: new Date(0) })).toThrow(/Unsupported type/);
    expect(() => toItem({ n: Number.MAX_SAFE_INTEGER + 2 })).toThrow(/MAX_SAFE_INTEGER/);
    expect(() => toItem({ n: Number.NaN })).toThrow(/not allowed/);
  });
});
