import * as environmentRepository from '@lambdas/data/environment-repository';
import { getMember } from '@lambdas/data/project-repository';
import { environmentUseCases } from '@lambdas/use-cases/environments';

/** A project's environments (the composition root of their routes). */
export const environments = environmentUseCases({ environments: { ...environmentRepository, getMember } });
