import { ErrorText, NotFoundError } from '@lambdas/domain/errors';
import { isProjectId } from '@lambdas/domain/ids';
import { emailSchema } from './schemas';

/** `{projectId}`: a malformed id names no project. */
export const projectParams = (raw: Record<string, string>): { projectId: string } => {
  const projectId = raw.projectId ?? '';
  if (!isProjectId(projectId)) throw new NotFoundError(ErrorText.projectNotFound);
  return { projectId };
};

/** `{projectId}` and `{email}`: the e-mail is normalised as everywhere else; a malformed one names no member. */
export const memberParams = (raw: Record<string, string>): { projectId: string; email: string } => {
  const { projectId } = projectParams(raw);
  const email = emailSchema.safeParse(raw.email ?? '');
  if (!email.success) throw new NotFoundError(ErrorText.memberNotFound);
  return { projectId, email: email.data };
};

/** `{id}` of a token, passed through; the use case checks its form. */
export const tokenParams = (raw: Record<string, string>): { id: string } => ({ id: raw.id ?? '' });
