import { ErrorText, NotFoundError } from '@lambdas/domain/errors';
import { grantableRoles } from '@lambdas/domain/roles';
import { scopes } from '@lambdas/domain/scopes';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { MAX_NAME_LENGTH, MAX_TTL_DAYS } from './limits';
import { projectParams } from './params';

// zod/mini instead of zod: the same validation at a tenth of the bundle and cold-start cost. Mini
// ships no messages; the English locale gives the `details` their readable text.
z.config(en());

const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_NAME_LENGTH));

/** An e-mail address, trimmed and lower-cased before use. */
export const emailSchema = z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.email().check(z.maxLength(254)));

/** Body of `POST /api/v1/tokens`. */
export const createTokenBody = z.strictObject({
  name,
  scopes: z.array(z.enum(scopes)).check(
    z.minLength(1),
    z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
  ),
  ttlDays: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS)))),
});

/** Body of `POST /api/v1/projects`. */
export const createProjectBody = z.strictObject({ name });

/** Body of `POST /api/v1/projects/{projectId}/members`. */
export const addMemberBody = z.strictObject({ email: emailSchema, role: z.enum(grantableRoles) });

/** `{projectId}` and `{email}`: the e-mail is normalised as everywhere else; a malformed one names no member. */
export const memberParams = (raw: Record<string, string>): { projectId: string; email: string } => {
  const { projectId } = projectParams(raw);
  const email = emailSchema.safeParse(raw.email ?? '');
  if (!email.success) throw new NotFoundError(ErrorText.memberNotFound);
  return { projectId, email: email.data };
};

export type CreateTokenBody = z.infer<typeof createTokenBody>;
export type CreateProjectBody = z.infer<typeof createProjectBody>;
export type AddMemberBody = z.infer<typeof addMemberBody>;
