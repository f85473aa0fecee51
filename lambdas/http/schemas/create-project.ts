import * as z from 'zod/mini';
import { nameSchema } from './name';
import './messages';

/** Body of `POST /api/v1/projects`. */
export const createProjectBody = z.strictObject({ name: nameSchema });

export type CreateProjectBody = z.infer<typeof createProjectBody>;
