import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_ENVIRONMENTS } from '@contract/limits';
import { DEFAULT_APPROVALS } from '@lambdas/domain/environment-access';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { EnvironmentRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, queryAll, type TableWrite, transactWrite } from './client';
import { ENVIRONMENT_PREFIX, environmentKey, projectKey } from './keys';
import { managerCheck } from './manager-check';
import { lowerProjectCount, raiseProjectCount } from './project-count';

/** The put of a new environment, if no environment of its name exists. */
export const environmentPut = (environment: EnvironmentRecord): TableWrite => ({
  Put: {
    Item: Object.assign(
      environmentKey(environment.projectId, environment.name),
      { entity: 'Environment' },
      environment,
    ),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** A project's environments, strongly consistent (one just created is listed). */
export const listEnvironments = (projectId: string): Promise<EnvironmentRecord[]> =>
  queryAll<EnvironmentRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :environment)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':environment': ENVIRONMENT_PREFIX },
    ConsistentRead: true,
  });

/** One environment, strongly consistent. */
export const getEnvironment = (projectId: string, name: string): Promise<EnvironmentRecord | undefined> =>
  getItem<EnvironmentRecord>(environmentKey(projectId, name), true);

/**
 * Adds an environment with its event while `managerUserId` still manages the project, in one
 * transaction that raises the project's count of environments only below its limit (a project made
 * before environments existed has no count: none). 409 when the name is taken or the limit reached,
 * 404 when the caller no longer manages the project.
 */
export const createEnvironment = async (
  managerUserId: string,
  environment: EnvironmentRecord,
  event: AuditEvent,
): Promise<void> => {
  const { projectId } = environment;
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      environmentPut(environment),
      raiseProjectCount(projectId, 'environmentCount', MAX_ENVIRONMENTS),
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1, 2],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  if (outcome.conditionFailed.includes(1)) throw new ConflictError(ErrorText.environmentExists);
  throw new ConflictError(ErrorText.environmentLimit);
};

/**
 * Stores an environment's settings with their event, in one transaction that checks `managerUserId`
 * still manages the project and updates the environment only in the life it was read in, raising its
 * revision (a secret write judged under the old settings then fails and is judged again). Answers
 * whether it wrote.
 */
export const updateEnvironment = async (
  managerUserId: string,
  environment: EnvironmentRecord,
  event: AuditEvent,
): Promise<boolean> => {
  const { projectId, name, life } = environment;
  const settings = {
    ':protected': environment.protected ?? false,
    ':approvals': environment.approvals ?? DEFAULT_APPROVALS,
    ':defaultAccess': environment.defaultAccess ?? 'write',
  };
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Update: {
          Key: environmentKey(projectId, name),
          UpdateExpression:
            'SET #protected = :protected, approvals = :approvals, defaultAccess = :defaultAccess, revision = if_not_exists(revision, :zero) + :one',
          ConditionExpression: `attribute_exists(PK) AND ${life === undefined ? 'attribute_not_exists(life)' : 'life = :life'}`,
          ExpressionAttributeNames: { '#protected': 'protected' },
          ExpressionAttributeValues: {
            ...settings,
            ':zero': 0,
            ':one': 1,
            ...(life !== undefined && { ':life': life }),
          },
        },
      },
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  return outcome.ok;
};

/**
 * Deletes an environment that holds no live secret, with its event, while `managerUserId` still
 * manages the project; the project's count goes down in the same transaction. 404 for no such
 * environment (or a caller who no longer manages the project), 409 while it holds a live secret.
 */
export const deleteEnvironment = async (
  managerUserId: string,
  projectId: string,
  name: string,
  event: AuditEvent,
): Promise<void> => {
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Delete: {
          Key: environmentKey(projectId, name),
          ConditionExpression: 'attribute_exists(PK) AND secretCount = :zero',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      lowerProjectCount(projectId, 'environmentCount'),
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  // The environment is missing or still holds a secret: its item says which.
  const stored = await getEnvironment(projectId, name);
  throw stored ? new ConflictError(ErrorText.environmentNotEmpty) : new NotFoundError(ErrorText.environmentNotFound);
};
