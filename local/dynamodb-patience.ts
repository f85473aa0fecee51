/**
 * How long the service's DynamoDB client waits for each answer. A deployed function gives up after one
 * second (`lambdas/aws-sdk.ts`); DynamoDB Local, a JVM on a machine that is also building or testing,
 * can take several, so `npm start` waits longer rather than answer 503.
 */
export const LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS = 5_000;

/**
 * Sets how long the service's DynamoDB client waits for each answer. Loaded on call: the client reads
 * its table's name when loaded, so only once the handlers' environment is set (`serve`).
 */
export const setDynamoRequestTimeout = (ms: number): void => {
  const { dynamo } = require('@lambdas/data/client') as typeof import('@lambdas/data/client');
  const handler = dynamo.config.requestHandler as {
    updateHttpClientConfig(key: 'requestTimeout', value: number): void;
  };
  handler.updateHttpClientConfig('requestTimeout', ms);
};
