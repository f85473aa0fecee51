import { scopes } from '@lambdas/domain/scopes';
import * as z from 'zod/mini';
import { MAX_TTL_DAYS } from '../limits';
import { nameSchema } from './name';
import './messages';

/** Body of `POST /api/v1/tokens`. */
export const createTokenBody = z.strictObject({
  name: nameSchema,
  scopes: z.array(z.enum(scopes)).check(
    z.minLength(1),
    z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
  ),
  ttlDays: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS)))),
});

export type CreateTokenBody = z.infer<typeof createTokenBody>;
