import { ErrorText, NotFoundError } from '@lambdas/domain/errors';
import { isProjectId } from '@lambdas/domain/ids';

/** `{projectId}`: a malformed id names no project. */
export const projectParams = (raw: Record<string, string>): { projectId: string } => {
  const projectId = raw.projectId ?? '';
  if (!isProjectId(projectId)) throw new NotFoundError(ErrorText.projectNotFound);
  return { projectId };
};

/** `{id}` of a token, passed through; the use case checks its form. */
export const tokenParams = (raw: Record<string, string>): { id: string } => ({ id: raw.id ?? '' });
