import { DeleteItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { batchGetItems, getItem, tableName, toItem, transactWrite, writeIfCondition } from './client';
import { emailClaimKey, userProfileKey } from './keys';

/** A user as their latest verified session presented them. */
export interface UserProfile {
  readonly userId: string;
  /** The verified e-mail of the latest session: for display, never for an access decision. */
  readonly email: string;
  readonly lastSeenAt: string;
  /** When the user was offboarded, until a session issued later records the profile again. */
  readonly offboardedAt?: string;
}

/** Which user holds a verified e-mail address: the one whose latest session carried it. */
export interface EmailClaim {
  readonly email: string;
  readonly userId: string;
}

/** A user's profile, if they have ever signed in. */
export const getUserProfile = (userId: string): Promise<UserProfile | undefined> =>
  getItem<UserProfile>(userProfileKey(userId), false);

/** The profiles of these users, in no order (eventually consistent: display only). */
export const getUserProfiles = (userIds: readonly string[]): Promise<UserProfile[]> =>
  batchGetItems<UserProfile>(userIds.map(userProfileKey));

/** The user who holds this verified address, read consistently (it picks whom a write acts on). */
export const findUserByEmail = (email: string): Promise<EmailClaim | undefined> =>
  getItem<EmailClaim>(emailClaimKey(email), true);

/** Gives up a user's claim on an address, unless another user has claimed it since. */
export const releaseEmailClaim = async (email: string, userId: string): Promise<void> => {
  await writeIfCondition(
    new DeleteItemCommand({
      TableName: tableName,
      Key: marshall(emailClaimKey(email)),
      ConditionExpression: 'userId = :userId',
      ExpressionAttributeValues: marshall({ ':userId': userId }),
    }),
  );
};

/**
 * Records the profile a verified session presented, and its claim on the address: the latest session
 * to carry an address holds it, so an address given to another user finds that user from their first
 * session on. A renamed user first releases the old address (if still theirs), so it finds nobody;
 * profile and claim are then written together. Should a step fail, the profile still names the old
 * address and the next session runs every step again.
 */
export const recordUserProfile = async (
  profile: Omit<UserProfile, 'offboardedAt'>,
  previousEmail: string | undefined,
): Promise<void> => {
  if (previousEmail !== undefined && previousEmail !== profile.email) {
    await releaseEmailClaim(previousEmail, profile.userId);
  }
  await transactWrite([
    {
      Put: { TableName: tableName, Item: toItem({ ...userProfileKey(profile.userId), entity: 'Profile', ...profile }) },
    },
    {
      Put: {
        TableName: tableName,
        Item: toItem({
          ...emailClaimKey(profile.email),
          entity: 'EmailClaim',
          email: profile.email,
          userId: profile.userId,
        }),
      },
    },
  ]);
};

/** Marks a user's profile offboarded, if they ever signed in: their next session records it anew. */
export const markProfileOffboarded = async (userId: string, now: Date): Promise<void> => {
  await writeIfCondition(
    new UpdateItemCommand({
      TableName: tableName,
      Key: marshall(userProfileKey(userId)),
      UpdateExpression: 'SET offboardedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: marshall({ ':now': now.toISOString() }),
    }),
  );
};
