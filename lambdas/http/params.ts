import { normalizeEmail } from '@contract/email';
import { ErrorText } from '@contract/errors';
import { NotFoundError } from '@lambdas/domain/errors';
import { isProjectId } from '@lambdas/domain/ids';

/** `{projectId}`: a malformed id names no project. */
export const projectParams = (raw: Record<string, string>): { projectId: string } => {
  const projectId = raw.projectId ?? '';
  if (!isProjectId(projectId)) throw new NotFoundError(ErrorText.projectNotFound);
  return { projectId };
};

/** `{id}` of a token, passed through; the use case checks its form. */
export const tokenParams = (raw: Record<string, string>): { id: string } => ({ id: raw.id ?? '' });

/**
 * `{projectId}` and `{email}`: the e-mail is normalised as everywhere else; a malformed one names no
 * member. Checked without a schema library: this is remove-member's only validation, and building a
 * zod schema at load was about 6 % of its cold start (`npm run bench`).
 */
export const memberParams = (raw: Record<string, string>): { projectId: string; email: string } => {
  const { projectId } = projectParams(raw);
  const email = normalizeEmail(raw.email ?? '');
  if (email === undefined) throw new NotFoundError(ErrorText.memberNotFound);
  return { projectId, email };
};
