import { listProjectsRoute } from '@contract/routes/list-projects';
import { projects } from '@lambdas/composition/projects';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects: the projects the caller belongs to, with the caller's role. */
export const handler = defineRoute(listProjectsRoute)(async ({ principal }) => ({
  success: true,
  data: await projects.listProjects(principal),
}));
