import type { listProjectsRoute } from '@contract/routes/list-projects';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { listProjects } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** GET /api/v1/projects: the projects the caller belongs to, with the caller's role. */
export const listProjectsHandler = async (event: ApiEvent<typeof listProjectsRoute>) =>
  reply(event.route, { success: true, data: await listProjects(event.principal) });

export const handler = middy(listProjectsHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof listProjectsRoute => require('@contract/routes/list-projects').listProjectsRoute),
);
