/**
 * Every DynamoDB key of the single table, built in one place. Prefixes name the entity; the
 * README's entity chart mirrors this file.
 */

/** Primary key of an item. */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** A token, addressed by its public id (the authorizer's one read). */
export const tokenKey = (tokenId: string): ItemKey => ({ PK: `TOKEN#${tokenId}`, SK: 'TOKEN' });

/** List-index keys that place a token in its owner's list, newest first by creation time. */
export const tokenListKeys = (userId: string, createdAt: string, tokenId: string) => ({
  GSI1PK: `USER#${userId}#TOKENS`,
  GSI1SK: `${createdAt}#${tokenId}`,
});

/** Partition of a user's token list in the list index. */
export const tokenListPartition = (userId: string): string => `USER#${userId}#TOKENS`;

/** A user's token slots: the live tokens counted against the per-user limit. */
export const tokenSlotsKey = (userId: string): ItemKey => ({ PK: `USER#${userId}`, SK: 'TOKEN_SLOTS' });

/** A user's profile, recorded when a session is seen, found by e-mail when a member is added. */
export const profileKey = (email: string): ItemKey => ({ PK: `EMAIL#${email}`, SK: 'PROFILE' });

/** A project. */
export const projectKey = (projectId: string): ItemKey => ({ PK: `PROJECT#${projectId}`, SK: 'PROJECT' });

/** Sort-key prefix of the member items in a project's partition. */
export const MEMBER_PREFIX = 'MEMBER#';

/** One member of a project. */
export const memberKey = (projectId: string, email: string): ItemKey => ({
  PK: `PROJECT#${projectId}`,
  SK: `${MEMBER_PREFIX}${email}`,
});

/** List-index keys that place a membership in the member's project list. */
export const memberProjectListKeys = (email: string, projectId: string) => ({
  GSI1PK: memberProjectListPartition(email),
  GSI1SK: `PROJECT#${projectId}`,
});

/** Partition of a member's project list in the list index. */
export const memberProjectListPartition = (email: string): string => `EMAIL#${email}#PROJECTS`;
