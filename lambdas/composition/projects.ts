import { listEnvironments } from '@lambdas/data/environment-repository';
import * as projectRepository from '@lambdas/data/project-repository';
import * as userRepository from '@lambdas/data/user-repository';
import { randomIds } from '@lambdas/domain/ids';
import { projectUseCases } from '@lambdas/use-cases/projects';

/**
 * Creating projects and managing their members (the composition root of their routes). The
 * repositories are passed whole: a new access pattern there reaches the use cases without a line here;
 * the members' access is shown against the project's environments.
 */
export const projects = projectUseCases({
  projects: { ...projectRepository, listEnvironments },
  users: userRepository,
  ids: randomIds,
});
