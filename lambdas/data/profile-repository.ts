import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { fromAttributes, toAttributes } from './attributes';
import { dynamo, tableName } from './client';
import { profileKey } from './keys';

/** A user as last seen through a dashboard session. */
export interface ProfileRecord {
  readonly email: string;
  readonly userId: string;
  readonly lastSeenAt: string;
}

/** The profile of the user who owns this e-mail, if they have ever signed in. */
export const getProfileByEmail = async (email: string, consistent = false): Promise<ProfileRecord | undefined> => {
  const { Item } = await dynamo.send(
    new GetItemCommand({ TableName: tableName, Key: toAttributes(profileKey(email)), ConsistentRead: consistent }),
  );
  return Item && (fromAttributes(Item) as unknown as ProfileRecord);
};

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
