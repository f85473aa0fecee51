import * as projectRepository from '@lambdas/data/project-repository';
import * as userRepository from '@lambdas/data/user-repository';
import { randomIds } from '@lambdas/domain/ids';
import { projectUseCases } from '@lambdas/use-cases/projects';

/**
 * Creating projects and managing their members (the composition root of their routes). The
 * repositories are passed whole: a new access pattern there reaches the use cases without a line here.
 */
export const projects = projectUseCases({ projects: projectRepository, users: userRepository, ids: randomIds });
