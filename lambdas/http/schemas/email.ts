import { ErrorText, NotFoundError } from '@lambdas/domain/errors';
import * as z from 'zod/mini';
import { projectParams } from '../params';
import './messages';

/** An e-mail address, trimmed and lower-cased before use. */
export const emailSchema = z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.email().check(z.maxLength(254)));

/** `{projectId}` and `{email}`: the e-mail is normalised as everywhere else; a malformed one names no member. */
export const memberParams = (raw: Record<string, string>): { projectId: string; email: string } => {
  const { projectId } = projectParams(raw);
  const email = emailSchema.safeParse(raw.email ?? '');
  if (!email.success) throw new NotFoundError(ErrorText.memberNotFound);
  return { projectId, email: email.data };
};
