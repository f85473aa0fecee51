import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { toAttributes } from './attributes';
import { dynamo, getItem, tableName } from './client';
import { profileKey } from './keys';

/** A user as last seen through a dashboard session. */
export interface ProfileRecord {
  readonly email: string;
  readonly userId: string;
  readonly lastSeenAt: string;
}

/** The profile of the user who owns this e-mail, if they have ever signed in. */
export const getProfileByEmail = (email: string, consistent = false): Promise<ProfileRecord | undefined> =>
  getItem<ProfileRecord>(profileKey(email), consistent);

/**
 * Records (or refreshes) the profile a session presented. An UpdateItem rather than a Put, so the
 * authorizer's role needs no write action beyond UpdateItem.
 */
export const putProfile = async (profile: ProfileRecord): Promise<void> => {
  await dynamo.send(
    new UpdateItemCommand({
      TableName: tableName,
      Key: toAttributes(profileKey(profile.email)),
      UpdateExpression: 'SET entity = :entity, email = :email, userId = :userId, lastSeenAt = :lastSeenAt',
      ExpressionAttributeValues: toAttributes({
        ':entity': 'Profile',
        ':email': profile.email,
        ':userId': profile.userId,
        ':lastSeenAt': profile.lastSeenAt,
      }),
    }),
  );
};
