import { listMembershipsByUser } from '@lambdas/data/project-repository';
import { meUseCases } from '@lambdas/use-cases/me';

/** The caller's own description (the composition root of `GET /me`): it reads only their memberships. */
export const me = meUseCases({ memberships: { listMembershipsByUser } });
