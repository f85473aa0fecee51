import { listProjectsRoute } from '@contract/routes/list-projects';
import { defineRoute } from '@lambdas/http/define-route';
import { listProjects } from '@lambdas/use-cases/projects';

/** GET /api/v1/projects: the projects the caller belongs to, with the caller's role. */
export const handler = defineRoute(listProjectsRoute)(async ({ principal }) => ({
  success: true,
  data: await listProjects(principal),
}));
