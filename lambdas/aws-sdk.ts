/**
 * What every AWS SDK client of the service shares: its retries and timeouts, its set-up, and which
 * failures mean the AWS service is throttling or out of reach (answered 503, so the client may retry).
 */
import { tracer } from './observability';

/**
 * Retries and timeouts: a call that stalls gives up after three attempts of one second each (about
 * 3.3 s with back-off), so even the authorizer's two calls end well inside the 10 s Lambda timeout and
 * API Gateway's 29 s. Without `throwOnRequestTimeout` the SDK only logs an overdue request and keeps
 * waiting.
 */
export const sdkClientSettings = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_000, throwOnRequestTimeout: true },
} as const;

/**
 * A client as every function uses it: one per container, reused across invocations (keep-alive is the
 * SDK default), its calls recorded by the Tracer as X-Ray subsegments in a sampled invocation, and
 * without the SDK's logger middleware, which copies every input and output (sensitive fields masked)
 * for a logger the client never has: a cost the warm-CPU rows of `npm run bench` measure.
 */
export const serviceClient = <C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C => {
  const captured = tracer.captureAWSv3Client(client);
  captured.middlewareStack.remove('loggerMiddleware');
  return captured;
};

/** Node's codes of a connection that failed or broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Whether an SDK error is one of the service's throttling or outage errors (`names`), or a network failure. */
export const isUnavailable = (error: unknown, names: ReadonlySet<string>): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return names.has(error.name) || (typeof code === 'string' && NETWORK_CODES.has(code));
};
