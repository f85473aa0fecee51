import * as z from 'zod/mini';
import { MAX_NAME_LENGTH } from '../limits';
import './messages';

/** The name of a token or a project, trimmed. */
export const nameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_NAME_LENGTH));
