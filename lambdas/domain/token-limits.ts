import type { TokenProject } from './records';

/*
 * Where a token limited to projects may go: only routes under `/api/v1/projects/{projectId}` of a
 * project it lists. A project listed with environments is reached only beneath those environments
 * (their secrets, versions and export): the project's own routes (members, environments, its trail)
 * and an environment itself (its deletion, its settings) act on the project as a whole, which a token
 * limited to some of it may not, or it could grant itself the rest. Decided from the route's resource
 * and path parameters, with no read beyond the token's own.
 */

const PROJECT_RESOURCE = '/api/v1/projects/{projectId}';
const ENVIRONMENT_RESOURCE = `${PROJECT_RESOURCE}/environments/{environment}`;

/** Whether `resource` is `base` or a route beneath it. */
const within = (resource: string, base: string): boolean => resource === base || resource.startsWith(`${base}/`);

/**
 * A path parameter as the route sees it: API Gateway passes it percent-encoded, the route middleware
 * decodes it; one that does not decode is no name at all (`undefined`), so it matches no listed one.
 */
const decoded = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/**
 * Whether a token limited to `projects` (`undefined`: not limited) may read the secrets of `environment`
 * in `projectId`: what a value's references in another environment or project are held to.
 */
export const tokenReachesEnvironment = (
  projects: readonly TokenProject[] | undefined,
  projectId: string,
  environment: string,
): boolean => {
  if (projects === undefined) return true;
  const listed = projects.find((entry) => entry.projectId === projectId);
  return listed !== undefined && (listed.environments === undefined || listed.environments.includes(environment));
};

/**
 * Whether a token limited to `projects` may call the route of `resource` with `pathParameters`
 * (`undefined` projects: the token is not limited). Fails closed: a route outside a project, or a
 * parameter missing or undecodable, is refused.
 */
export const tokenReaches = (
  projects: readonly TokenProject[] | undefined,
  resource: string,
  pathParameters: Readonly<Record<string, string | undefined>> | null | undefined,
): boolean => {
  if (projects === undefined) return true;
  if (!within(resource, PROJECT_RESOURCE)) return false;
  const projectId = decoded(pathParameters?.projectId);
  const listed = projects.find((entry) => entry.projectId === projectId);
  if (!listed) return false;
  if (listed.environments === undefined) return true;
  if (!resource.startsWith(`${ENVIRONMENT_RESOURCE}/`)) return false;
  const environment = decoded(pathParameters?.environment);
  return environment !== undefined && listed.environments.includes(environment);
};
