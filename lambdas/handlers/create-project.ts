import type { createProjectRoute } from '@contract/routes/create-project';
import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { createProject } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** POST /api/v1/projects: creates a project owned by the caller. */
export const createProjectHandler = async (event: ApiEvent<typeof createProjectRoute>) =>
  reply(event.route, {
    success: true,
    data: await createProject(event.principal, event.input.name, event.origin, clock.now()),
  });

export const handler = middy(createProjectHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof createProjectRoute => require('@contract/routes/create-project').createProjectRoute),
);
