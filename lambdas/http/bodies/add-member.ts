import { type GrantableRole, grantableRoles } from '@contract/roles';
import { email, oneOf, strictObject } from './checks';

/** Body of `POST /api/v1/projects/{projectId}/members`. */
export interface AddMemberBody {
  email: string;
  role: GrantableRole;
}

/** The checked body of `POST /api/v1/projects/{projectId}/members` (its schema: `addMemberBodySchema` in lib/api-schemas.ts). */
export const addMemberBody = strictObject<AddMemberBody>({ email, role: oneOf(grantableRoles) });
