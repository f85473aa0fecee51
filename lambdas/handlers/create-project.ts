import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { type CreateProjectBody, createProjectBody } from '@lambdas/http/bodies/create-project';
import { json } from '@lambdas/http/responses';
import { createProject } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** POST /api/v1/projects: creates a project owned by the caller. */
export const createProjectHandler = async (event: ApiEvent<CreateProjectBody>) =>
  json(201, { success: true, data: await createProject(event.principal, event.input.name, clock.now()) });

export const handler = middy(createProjectHandler, MIDDY_OPTIONS).use(apiMiddleware({ body: createProjectBody }));
