import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS_NAMESPACE, SERVICE_NAME } from '@contract/service-metrics';

/**
 * Every function's logger, metrics and tracer (Powertools for AWS Lambda), created once when the
 * function loads. Callers log ids and outcomes, never a credential, a value or a request body. The log
 * level comes from `LOG_LEVEL` (or `POWERTOOLS_LOG_LEVEL`); tracing is on only inside Lambda.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/** Metrics in CloudWatch's embedded metric format, written to the log: no call on the request path. */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, logger });

/** X-Ray: each SDK client it captures records its calls as subsegments of the invocation. */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

/**
 * Writes the metrics the invocation stored, if any, and on a container's first invocation its
 * cold-start metric named `functionName`: Powertools' `logMetrics` middleware would also warn on every
 * invocation that stored none (most reads).
 */
export const publishMetrics = (functionName: string): void => {
  metrics.captureColdStartMetric(functionName);
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
};
