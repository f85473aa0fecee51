import { createProjectRoute } from '@contract/routes/create-project';
import { defineRoute } from '@lambdas/http/define-route';
import { createProject } from '@lambdas/use-cases/projects';

/** POST /api/v1/projects: the caller becomes its owner. */
export const handler = defineRoute(createProjectRoute)(async ({ principal, input, origin, now }) => ({
  success: true,
  data: await createProject(principal, input.name, origin, now),
}));
