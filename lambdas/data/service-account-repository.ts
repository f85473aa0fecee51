import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_SERVICE_ACCOUNTS } from '@contract/limits';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { ServiceAccountRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, queryAll, transactWrite } from './client';
import { projectKey, SERVICE_ACCOUNT_PREFIX, serviceAccountKey, trustRulesKey } from './keys';
import { managerCheck } from './manager-check';
import { lowerProjectCount, raiseProjectCount } from './project-count';

/*
 * A project's service accounts, in the project's partition beside its members and environments. The
 * project item counts them (`serviceAccountCount`), and every create raises the count only below the
 * limit in its own transaction: concurrent creates cannot pass it.
 */

/** A project's service accounts, strongly consistent (one just created is listed). */
export const listServiceAccounts = (projectId: string): Promise<ServiceAccountRecord[]> =>
  queryAll<ServiceAccountRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :serviceAccount)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':serviceAccount': SERVICE_ACCOUNT_PREFIX },
    ConsistentRead: true,
  });

/** One service account, strongly consistent. */
export const getServiceAccount = (
  projectId: string,
  serviceAccountId: string,
): Promise<ServiceAccountRecord | undefined> =>
  getItem<ServiceAccountRecord>(serviceAccountKey(projectId, serviceAccountId), true);

/**
 * Adds a service account with its event while `managerUserId` still manages the project, raising the
 * project's count of service accounts only below its limit. 404 when the caller no longer manages the
 * project, 409 at the limit.
 */
export const createServiceAccount = async (
  managerUserId: string,
  serviceAccount: ServiceAccountRecord,
  event: AuditEvent,
): Promise<void> => {
  const { projectId, serviceAccountId } = serviceAccount;
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Put: {
          Item: Object.assign(
            serviceAccountKey(projectId, serviceAccountId),
            { entity: 'ServiceAccount' },
            serviceAccount,
          ),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      raiseProjectCount(projectId, 'serviceAccountCount', MAX_SERVICE_ACCOUNTS),
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 2],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  throw new ConflictError(ErrorText.serviceAccountLimit);
};

/**
 * Stores a service account's name, description and access with the event, while `managerUserId` still
 * manages the project and the service account still exists. 404 for either.
 */
export const updateServiceAccount = async (
  managerUserId: string,
  serviceAccount: ServiceAccountRecord,
  event: AuditEvent,
): Promise<void> => {
  const { projectId, serviceAccountId } = serviceAccount;
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Update: {
          Key: serviceAccountKey(projectId, serviceAccountId),
          // The revision tells a write of the service account's that the access it was allowed by changed.
          UpdateExpression: 'SET #name = :name, description = :description, #access = :access ADD accessRevision :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#name': 'name', '#access': 'access' },
          ExpressionAttributeValues: {
            ':name': serviceAccount.name,
            ':description': serviceAccount.description,
            ':access': serviceAccount.access,
            ':one': 1,
          },
        },
      },
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  throw new NotFoundError(ErrorText.serviceAccountNotFound);
};

/**
 * Deletes a service account with its event and its trust rules while `managerUserId` still manages the
 * project; the project's count goes down in the same transaction. 404 for a service account already gone, or a
 * caller who no longer manages the project.
 */
export const deleteServiceAccount = async (
  managerUserId: string,
  projectId: string,
  serviceAccountId: string,
  event: AuditEvent,
): Promise<void> => {
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      {
        Delete: {
          Key: serviceAccountKey(projectId, serviceAccountId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      lowerProjectCount(projectId, 'serviceAccountCount'),
      auditEventPut(event, { userId: managerUserId, projectId }),
      // Its trust rules go with it: no sign-in finds a rule of a service account that is gone.
      { Delete: { Key: trustRulesKey(serviceAccountId) } },
    ],
    [0, 1],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  throw new NotFoundError(ErrorText.serviceAccountNotFound);
};
