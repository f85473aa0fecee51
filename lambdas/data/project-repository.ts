import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { EnvironmentRecord, MemberRecord, ProjectRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { batchGetItems, getItem, queryAll, type TableWrite, transactWrite, writeIfCondition } from './client';
import { environmentPut } from './environment-repository';
import { MEMBER_PREFIX, MEMBERSHIP_PREFIX, memberKey, membershipKey, projectKey, userPartition } from './keys';
import { managerCheck } from './manager-check';
import { asMember } from './member-item';
import { claimStillNames } from './user-repository';

const memberItem = (member: MemberRecord) =>
  Object.assign(memberKey(member.projectId, member.userId), { entity: 'Member' }, member);

/** The member's own copy of a membership, written and deleted in the same transaction as the member item. */
const membershipPut = (member: MemberRecord): TableWrite => ({
  Put: { Item: Object.assign(membershipKey(member.userId, member.projectId), { entity: 'Membership' }, member) },
});

const membershipDelete = (projectId: string, userId: string): TableWrite => ({
  Delete: { Key: membershipKey(userId, projectId) },
});

/** Creates a project and its owner's membership atomically, with its event: never a project without its owner. */
export const createProjectWithOwner = async (
  project: ProjectRecord,
  ownerUserId: string,
  environments: readonly EnvironmentRecord[],
  event: AuditEvent,
) => {
  const owner: MemberRecord = {
    projectId: project.projectId,
    projectName: project.name,
    projectCreatedAt: project.createdAt,
    userId: ownerUserId,
    role: 'owner',
    addedAt: project.createdAt,
  };
  await transactWrite([
    {
      Put: {
        Item: Object.assign(
          projectKey(project.projectId),
          { entity: 'Project', ownerUserId, environmentCount: environments.length },
          project,
        ),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    { Put: { Item: memberItem(owner), ConditionExpression: 'attribute_not_exists(PK)' } },
    membershipPut(owner),
    ...environments.map(environmentPut),
    auditEventPut(event, { userId: ownerUserId, projectId: project.projectId }),
  ]);
};

/**
 * The memberships of a user, one per project, from the user's own partition: strongly consistent
 * when `consistent` (offboarding must see a membership added a moment ago), else for a list.
 */
export const listMembershipsByUser = (userId: string, consistent: boolean): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :membership)',
    ExpressionAttributeValues: { ':pk': userPartition(userId), ':membership': MEMBERSHIP_PREFIX },
    ConsistentRead: consistent,
  });

/**
 * Which of these projects a user belongs to, from the user's own copies of their memberships, read
 * consistently in one BatchGetItem: what a function that may read only the caller's partition
 * (create-token) needs to know of the caller's projects.
 */
export const getMemberships = (userId: string, projectIds: readonly string[]): Promise<MemberRecord[]> =>
  batchGetItems<MemberRecord>(
    projectIds.map((projectId) => membershipKey(userId, projectId)),
    true,
  );

/** One membership, read consistently (it decides access). */
export const getMember = async (projectId: string, userId: string): Promise<MemberRecord | undefined> =>
  asMember(await getItem<Record<string, unknown>>(memberKey(projectId, userId), true));

/** Every member of a project, read consistently from the project's partition. */
export const listMembers = (projectId: string): Promise<MemberRecord[]> =>
  queryAll<MemberRecord>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).PK, ':member': MEMBER_PREFIX },
    ConsistentRead: true,
  });

/**
 * Marks the member's own copy of a membership opened, only while it holds a notice not opened yet (who
 * added them, and no `seenAt`): one conditional write, which never makes an item of a membership that
 * is gone. Answers whether it marked.
 */
export const markMembershipSeen = (projectId: string, userId: string, seenAt: string): Promise<boolean> =>
  writeIfCondition({
    Update: {
      Key: membershipKey(userId, projectId),
      UpdateExpression: 'SET seenAt = :seenAt',
      ConditionExpression: 'attribute_exists(addedBy) AND attribute_not_exists(seenAt)',
      ExpressionAttributeValues: { ':seenAt': seenAt },
    },
  });

/**
 * Adds a member if the user is not one yet, in one transaction with a check that the acting manager
 * still holds a managing role and that `email` still finds the user (a rename or an offboarding since
 * it was resolved fails it), and with its event.
 */
export const putMemberIfAbsent = async (
  manager: MemberRecord,
  member: MemberRecord,
  email: string,
  event: AuditEvent,
): Promise<void> => {
  const outcome = await transactWrite(
    [
      managerCheck(manager.projectId, manager.userId),
      claimStillNames(email, member.userId),
      { Put: { Item: memberItem(member), ConditionExpression: 'attribute_not_exists(PK)' } },
      membershipPut(member),
      auditEventPut(event, { userId: manager.userId, projectId: manager.projectId }),
    ],
    [0, 1, 2],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(2)) throw new ConflictError(ErrorText.alreadyMember);
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  throw new NotFoundError(ErrorText.userNotFound);
};

const deleteUnlessOwner = (projectId: string, userId: string): TableWrite => ({
  Delete: {
    Key: memberKey(projectId, userId),
    ConditionExpression: 'attribute_exists(PK) AND #role <> :owner',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':owner': 'owner' },
  },
});

/**
 * Removes a member who is not the owner, if the caller may, with its event: one transaction that
 * checks the caller's managing role, that `email` still finds the user, and deletes the member unless
 * it is the owner, or, when callers remove themselves, deletes them only if they are an admin (an
 * owner cannot leave, a plain member may not manage). Answers whether it removed; on `false` nothing
 * changed and the caller explains why.
 */
export const deleteMemberIfAllowed = async (
  projectId: string,
  callerUserId: string,
  member: { userId: string; email: string },
  event: AuditEvent,
): Promise<boolean> => {
  const { userId, email } = member;
  const recorded = auditEventPut(event, { userId: callerUserId, projectId });
  const transaction: TableWrite[] =
    callerUserId === userId
      ? [
          {
            Delete: {
              Key: memberKey(projectId, userId),
              ConditionExpression: '#role = :admin',
              ExpressionAttributeNames: { '#role': 'role' },
              ExpressionAttributeValues: { ':admin': 'admin' },
            },
          },
          claimStillNames(email, userId),
          membershipDelete(projectId, userId),
          recorded,
        ]
      : [
          managerCheck(projectId, callerUserId),
          claimStillNames(email, userId),
          deleteUnlessOwner(projectId, userId),
          membershipDelete(projectId, userId),
          recorded,
        ];
  const outcome = await transactWrite(transaction, [0, 1, 2]);
  return outcome.ok;
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
  const outcome = await transactWrite(
    [
      deleteUnlessOwner(projectId, userId),
      membershipDelete(projectId, userId),
      auditEventPut(event, { userId, projectId }),
    ],
    [0],
  );
  return outcome.ok;
};

/**
 * Sets a plain member's access with its event: one transaction that checks the manager still manages
 * the project and `email` still finds the member, and updates the member only while their access is at
 * the revision read (raising it). `changed`: the member moved since (read again); `refused`: the
 * manager or the claim no longer holds.
 */
export const setMemberAccess = async (
  managerUserId: string,
  member: MemberRecord,
  email: string,
  event: AuditEvent,
): Promise<'written' | 'changed' | 'refused'> => {
  const read = member.accessRevision;
  const outcome = await transactWrite(
    [
      managerCheck(member.projectId, managerUserId),
      claimStillNames(email, member.userId),
      {
        Update: {
          Key: memberKey(member.projectId, member.userId),
          UpdateExpression: 'SET #access = :access, accessRevision = :next',
          ConditionExpression: `#role = :member AND ${read === undefined ? 'attribute_not_exists(accessRevision)' : 'accessRevision = :read'}`,
          ExpressionAttributeNames: { '#access': 'access', '#role': 'role' },
          ExpressionAttributeValues: {
            ':access': member.access ?? {},
            ':next': (read ?? 0) + 1,
            ':member': 'member',
            ...(read !== undefined && { ':read': read }),
          },
        },
      },
      auditEventPut(event, { userId: managerUserId, projectId: member.projectId }),
    ],
    [0, 1, 2],
  );
  if (outcome.ok) return 'written';
  return outcome.conditionFailed.includes(2) &&
    !outcome.conditionFailed.includes(0) &&
    !outcome.conditionFailed.includes(1)
    ? 'changed'
    : 'refused';
};
