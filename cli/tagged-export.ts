import type { SecretsClient } from './client';
import { dataOf } from './client';
import type { Target } from './target';

/** An environment's export as read, with the tag that asks the service whether it has changed since. */
export interface TaggedExport {
  readonly etag: string | undefined;
  readonly values: Record<string, string>;
}

/**
 * The environment's export, or undefined when the service answers that `etag` still holds (a 304:
 * no value read, no read recorded), which lets `run --watch` ask often at no cost to the audit trail.
 */
export const readTaggedExport = async (
  client: SecretsClient,
  target: Target,
  etag?: string,
): Promise<TaggedExport | undefined> => {
  const result = await client.api.GET('/api/v1/projects/{projectId}/environments/{environment}/export', {
    params: {
      path: { projectId: target.projectId, environment: target.environment },
      ...(etag !== undefined && { header: { 'If-None-Match': etag } }),
    },
  });
  if (etag !== undefined && result.response.status === 304) return undefined;
  return { etag: result.response.headers.get('ETag') ?? undefined, values: await dataOf(Promise.resolve(result)) };
};
