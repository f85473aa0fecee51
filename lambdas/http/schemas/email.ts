import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '@lambdas/domain/email';
import * as z from 'zod/mini';
import './messages';

/** An e-mail address in a body, trimmed and lower-cased before use (`normalizeEmail` in a path). */
export const emailSchema = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.email({ pattern: EMAIL_PATTERN }).check(z.maxLength(MAX_EMAIL_LENGTH)),
);
