import { grantableRoles } from '@lambdas/domain/roles';
import * as z from 'zod/mini';
import { emailSchema } from './email';
import './messages';

/** Body of `POST /api/v1/projects/{projectId}/members`. */
export const addMemberBody = z.strictObject({ email: emailSchema, role: z.enum(grantableRoles) });

export type AddMemberBody = z.infer<typeof addMemberBody>;
