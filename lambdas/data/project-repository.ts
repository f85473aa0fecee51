import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ErrorText, NotFoundError } from '@lambdas/domain/errors';
import type { ProjectRole } from '@lambdas/domain/roles';
import { listIndexName } from '@lib/table-schema';
import { conditionFailedAt, dynamo, isConditionFailed, queryAll, tableName, transactWrite } from './client';
import { MEMBER_PREFIX, memberKey, memberProjectListKeys, memberProjectListPartition, projectKey } from './keys';

/** A project. */
export interface ProjectRecord {
  readonly projectId: string;
  readonly name: string;
  readonly createdAt: string;
}

/** One membership; it carries the project's name and creation time for the caller's project list. */
export interface MemberRecord {
  readonly projectId: string;
  readonly projectName: string;
  readonly projectCreatedAt: string;
  readonly email: string;
  readonly userId: string;
  readonly role: ProjectRole;
  readonly addedAt: string;
}

const memberItem = (member: MemberRecord) => ({
  ...memberKey(member.projectId, member.email),
  ...memberProjectListKeys(member.email, member.projectId),
  entity: 'Member',
  ...member,
});

/** Creates a project and its owner's membership atomically: never a project without its owner. */
export const createProjectWithOwner = async (project: ProjectRecord, owner: { email: string; userId: string }) => {
  await transactWrite([
    {
      Put: {
        TableName: tableName,
        Item: { ...projectKey(project.projectId), entity: 'Project', ...project, ownerEmail: owner.email },
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
          email: owner.email,
          userId: owner.userId,
          role: 'owner',
          addedAt: project.createdAt,
        }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ]);
};

/** The memberships of an e-mail, one per project (list index). */
export const listMembershipsByEmail = (email: string): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    IndexName: listIndexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': memberProjectListPartition(email) },
  });

/** One membership, read consistently (it decides access). */
export const getMember = async (projectId: string, email: string): Promise<MemberRecord | undefined> => {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: memberKey(projectId, email), ConsistentRead: true }),
  );
  return Item as MemberRecord | undefined;
};

/** Every member of a project, read consistently from the project's partition. */
export const listMembers = (projectId: string): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':member': MEMBER_PREFIX },
    ConsistentRead: true,
  });

/** Transaction item that holds only while the acting manager still has a managing role. */
const managerCheck = (manager: MemberRecord) => ({
  ConditionCheck: {
    TableName: tableName,
    Key: memberKey(manager.projectId, manager.email),
    ConditionExpression: '#role IN (:owner, :admin)',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':owner': 'owner', ':admin': 'admin' },
  },
});

/**
 * Adds a member if the e-mail is not one yet, in one transaction with a check that the acting
 * manager still holds a managing role.
 */
export const putMemberIfAbsent = async (manager: MemberRecord, member: MemberRecord): Promise<void> => {
  try {
    await transactWrite([
      managerCheck(manager),
      { Put: { TableName: tableName, Item: memberItem(member), ConditionExpression: 'attribute_not_exists(PK)' } },
    ]);
  } catch (error) {
    if (conditionFailedAt(error, 1)) throw new ConflictError(ErrorText.alreadyMember);
    if (conditionFailedAt(error, 0)) throw new NotFoundError(ErrorText.projectNotFound);
    throw error;
  }
};

/**
 * Removes a member who is not the owner, in one transaction with a check that the acting manager
 * still holds a managing role. A manager removing themselves needs no such check.
 */
export const deleteNonOwnerMember = async (manager: MemberRecord, projectId: string, email: string): Promise<void> => {
  const deleteMember = {
    TableName: tableName,
    Key: memberKey(projectId, email),
    ConditionExpression: 'attribute_exists(PK) AND #role <> :owner',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':owner': 'owner' },
  };
  try {
    if (manager.email === email) {
      await dynamo.send(new DeleteCommand(deleteMember));
      return;
    }
    await transactWrite([managerCheck(manager), { Delete: deleteMember }]);
  } catch (error) {
    if (isConditionFailed(error) || conditionFailedAt(error, 1)) {
      const current = await getMember(projectId, email);
      throw current ? new ConflictError(ErrorText.ownerRemoval) : new NotFoundError(ErrorText.memberNotFound);
    }
    if (conditionFailedAt(error, 0)) throw new NotFoundError(ErrorText.projectNotFound);
    throw error;
  }
};
