import { marshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { ProjectRole } from '@contract/roles';
import { listIndexName } from '@contract/table-schema';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import { auditEventPut } from './audit-repository';
import { conditionFailedAt, getItem, queryAll, tableName, toItem, transactWrite } from './client';
import { MEMBER_PREFIX, memberKey, memberProjectListKeys, memberProjectListPartition, projectKey } from './keys';

/** A project. */
export interface ProjectRecord {
  readonly projectId: string;
  readonly name: string;
  readonly createdAt: string;
}

/**
 * One membership, keyed by the member's user id; it carries the project's name and creation time for
 * the member's project list. It holds no e-mail: a member is shown under their profile's address.
 */
export interface MemberRecord {
  readonly projectId: string;
  readonly projectName: string;
  readonly projectCreatedAt: string;
  readonly userId: string;
  readonly role: ProjectRole;
  readonly addedAt: string;
}

const memberItem = (member: MemberRecord) =>
  toItem({
    ...memberKey(member.projectId, member.userId),
    ...memberProjectListKeys(member.userId, member.projectId),
    entity: 'Member',
    ...member,
  });

/** Creates a project and its owner's membership atomically, with its event: never a project without its owner. */
export const createProjectWithOwner = async (project: ProjectRecord, ownerUserId: string, event: AuditEvent) => {
  await transactWrite([
    {
      Put: {
        TableName: tableName,
        Item: toItem({ ...projectKey(project.projectId), entity: 'Project', ownerUserId, ...project }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: memberItem({
          projectId: project.projectId,
          projectName: project.name,
          projectCreatedAt: project.createdAt,
          userId: ownerUserId,
          role: 'owner',
          addedAt: project.createdAt,
        }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    auditEventPut(event, { userId: ownerUserId, projectId: project.projectId }),
  ]);
};

/** The memberships of a user, one per project (list index). */
export const listMembershipsByUser = (userId: string): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: marshall({ ':pk': memberProjectListPartition(userId) }),
  });

/** One membership, read consistently (it decides access). */
export const getMember = (projectId: string, userId: string): Promise<MemberRecord | undefined> =>
  getItem<MemberRecord>(memberKey(projectId, userId), true);

/** Every member of a project, read consistently from the project's partition. */
export const listMembers = (projectId: string): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
    ExpressionAttributeValues: marshall({ ':pk': projectKey(projectId).PK, ':member': MEMBER_PREFIX }),
    ConsistentRead: true,
  });

/** Transaction item that holds only while the acting manager still has a managing role. */
const managerCheck = (projectId: string, managerUserId: string) => ({
  ConditionCheck: {
    TableName: tableName,
    Key: marshall(memberKey(projectId, managerUserId)),
    ConditionExpression: '#role IN (:owner, :admin)',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: marshall({ ':owner': 'owner', ':admin': 'admin' }),
  },
});

/**
 * Adds a member if the user is not one yet, in one transaction with a check that the acting manager
 * still holds a managing role, and with its event.
 */
export const putMemberIfAbsent = async (
  manager: MemberRecord,
  member: MemberRecord,
  event: AuditEvent,
): Promise<void> => {
  try {
    await transactWrite([
      managerCheck(manager.projectId, manager.userId),
      { Put: { TableName: tableName, Item: memberItem(member), ConditionExpression: 'attribute_not_exists(PK)' } },
      auditEventPut(event, { userId: manager.userId, projectId: manager.projectId }),
    ]);
  } catch (error) {
    if (conditionFailedAt(error, 1)) throw new ConflictError(ErrorText.alreadyMember);
    if (conditionFailedAt(error, 0)) throw new NotFoundError(ErrorText.projectNotFound);
    throw error;
  }
};

const deleteUnlessOwner = (projectId: string, userId: string) => ({
  TableName: tableName,
  Key: marshall(memberKey(projectId, userId)),
  ConditionExpression: 'attribute_exists(PK) AND #role <> :owner',
  ExpressionAttributeNames: { '#role': 'role' },
  ExpressionAttributeValues: marshall({ ':owner': 'owner' }),
});

/**
 * Removes a member who is not the owner, if the caller may, with its event: one transaction that
 * checks the caller's managing role and deletes the member unless it is the owner, or, when callers
 * remove themselves, deletes them only if they are an admin (an owner cannot leave, a plain member
 * may not manage). Answers whether it removed; on `false` nothing changed and the caller explains why.
 */
export const deleteMemberIfAllowed = async (
  projectId: string,
  callerUserId: string,
  userId: string,
  event: AuditEvent,
): Promise<boolean> => {
  const recorded = auditEventPut(event, { userId: callerUserId, projectId });
  try {
    if (callerUserId === userId) {
      await transactWrite([
        {
          Delete: {
            TableName: tableName,
            Key: marshall(memberKey(projectId, userId)),
            ConditionExpression: '#role = :admin',
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: marshall({ ':admin': 'admin' }),
          },
        },
        recorded,
      ]);
      return true;
    }
    await transactWrite([
      managerCheck(projectId, callerUserId),
      { Delete: deleteUnlessOwner(projectId, userId) },
      recorded,
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0) || conditionFailedAt(error, 1)) return false;
    throw error;
  }
};

/**
 * Removes a membership that is not an ownership, whoever asks (offboarding), with its event; answers
 * whether it removed one.
 */
export const deleteMembershipUnlessOwner = async (
  projectId: string,
  userId: string,
  event: AuditEvent,
): Promise<boolean> => {
  try {
    await transactWrite([
      { Delete: deleteUnlessOwner(projectId, userId) },
      auditEventPut(event, { userId, projectId }),
    ]);
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
};
