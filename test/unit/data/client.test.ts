process.env.TABLE_NAME ??= 'unit';

import { dynamo, toItem } from '@lambdas/data/client';

describe('the DynamoDB client', () => {
  it('sends without the SDK logger middleware, which masks every input and output for no logger', () => {
    const steps = dynamo.middlewareStack.identify();
    expect(steps).not.toContain('loggerMiddleware - initialize');
    expect(steps).toContain('retryMiddleware - finalizeRequest');
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
