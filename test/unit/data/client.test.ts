process.env.TABLE_NAME ??= 'unit';

import { dynamo } from '@lambdas/data/client';

describe('the DynamoDB client', () => {
  it('sends without the SDK logger middleware, which masks every input and output for no logger', () => {
    const steps = dynamo.middlewareStack.identify();
    expect(steps).not.toContain('loggerMiddleware - initialize');
    expect(steps).toContain('retryMiddleware - finalizeRequest');
  });
});
