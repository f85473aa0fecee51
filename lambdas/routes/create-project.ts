import { createProjectRoute } from '@contract/routes/create-project';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects: the caller becomes its owner. */
export const handler = defineRoute(createProjectRoute)(async ({ principal, input, origin, now }) => ({
  success: true,
  data: await projects.createProject(principal, input.name, origin, now),
}));
