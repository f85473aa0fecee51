import { COLD_START_METRIC, METRICS_NAMESPACE } from '@contract/service-metrics';

/** One metric value of a log line. */
export interface MetricPoint {
  readonly name: string;
  readonly value?: number;
  readonly unit?: 'Count' | 'Milliseconds';
}

let coldStart = true;

/**
 * Fields that turn a JSON log line into an embedded-metric-format record: CloudWatch extracts the
 * metrics from the line itself, with no client library and no call on the request path. Written by
 * hand rather than with Powertools Metrics, whose load adds several milliseconds to every function's
 * cold start, measured by `npm run bench` (cold load). The first record of a container also counts a
 * cold start.
 */
export const metricFields = (
  functionName: string,
  metrics: readonly MetricPoint[],
  dimensions: Readonly<Record<string, string>> = {},
): Record<string, unknown> => {
  const points = coldStart ? [...metrics, { name: COLD_START_METRIC }] : [...metrics];
  const wasCold = coldStart;
  coldStart = false;
  if (points.length === 0) return {};
  const directives = [];
  if (metrics.length > 0) {
    directives.push({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [Object.keys(dimensions)],
      Metrics: metrics.map((metric) => ({ Name: metric.name, Unit: metric.unit ?? 'Count' })),
    });
  }
  if (wasCold) {
    directives.push({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [['function']],
      Metrics: [{ Name: COLD_START_METRIC, Unit: 'Count' }],
    });
  }
  return {
    _aws: { Timestamp: Date.now(), CloudWatchMetrics: directives },
    ...dimensions,
    ...(wasCold && { function: functionName }),
    ...Object.fromEntries(points.map((metric) => [metric.name, metric.value ?? 1])),
  };
};
