import { grantableRoles } from '@lambdas/domain/roles';
import { scopes } from '@lambdas/domain/scopes';
import { z } from 'zod';

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Longest token or project name. */
export const MAX_NAME_LENGTH = 100;
/** Longest token lifetime in days (about ten years). */
export const MAX_TTL_DAYS = 3650;
/** Lifetime of a token created without `ttlDays`. */
export const DEFAULT_TTL_DAYS = 30;

const name = z.string().trim().min(1).max(MAX_NAME_LENGTH);

/** An e-mail address, trimmed and lower-cased before use. */
export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

/** Body of `POST /api/v1/tokens`. */
export const createTokenBody = z.strictObject({
  name,
  scopes: z
    .array(z.enum(scopes))
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
  ttlDays: z.number().int().min(1).max(MAX_TTL_DAYS).nullable().optional(),
});

/** Body of `POST /api/v1/projects`. */
export const createProjectBody = z.strictObject({ name });

/** Body of `POST /api/v1/projects/{projectId}/members`. */
export const addMemberBody = z.strictObject({ email: emailSchema, role: z.enum(grantableRoles) });

export type CreateTokenBody = z.infer<typeof createTokenBody>;
export type CreateProjectBody = z.infer<typeof createProjectBody>;
export type AddMemberBody = z.infer<typeof addMemberBody>;
