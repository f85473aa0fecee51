import { ServiceUnavailableError } from '@lambdas/domain/errors';
import type { EmailClaim, RecordedSession, UserProfile } from '@lambdas/domain/records';
import {
  type Attributes,
  batchGet,
  batchGetItems,
  getItem,
  type TableWrite,
  transactWrite,
  writeIfCondition,
  writeItem,
} from './client';
import { emailClaimKey, userProfileKey } from './keys';

/** A user's profile, if they have ever signed in or been offboarded. */
export const getUserProfile = (userId: string): Promise<UserProfile | undefined> =>
  getItem<UserProfile>(userProfileKey(userId), true);

/** The profiles of these users, in no order (eventually consistent: display only). */
export const getUserProfiles = (userIds: readonly string[]): Promise<UserProfile[]> =>
  batchGetItems<UserProfile>(userIds.map(userProfileKey));

/** The claim on a verified address, read consistently (it picks whom a write acts on), offboarded or not. */
export const getEmailClaim = (email: string): Promise<EmailClaim | undefined> =>
  getItem<EmailClaim>(emailClaimKey(email), true);

/**
 * The claims on these addresses that exist, offboarded or not, strongly consistent in one
 * BatchGetItem: who holds each address now decides who may reveal a share addressed to it.
 */
export const getEmailClaims = (emails: readonly string[]): Promise<EmailClaim[]> =>
  batchGetItems<EmailClaim>(emails.map(emailClaimKey), true);

/** Rounds of a BatchGetItem whose keys DynamoDB left unprocessed (throttling) before a 503. */
const SESSION_READ_ROUNDS = 3;

/**
 * A session's user profile and the claim on the session's address, both strongly consistent, in one
 * call: the authorizer's read on every session request (the mark decides access).
 */
export const readSessionRecords = async (
  userId: string,
  email: string,
): Promise<{ profile: UserProfile | undefined; claim: EmailClaim | undefined }> => {
  const profileKey = userProfileKey(userId);
  let pending = [profileKey, emailClaimKey(email)];
  let profile: UserProfile | undefined;
  let claim: EmailClaim | undefined;
  for (let round = 1; pending.length > 0; round += 1) {
    if (round > SESSION_READ_ROUNDS) throw new ServiceUnavailableError();
    const batch = await batchGet<Attributes>(pending, true);
    for (const record of batch.items) {
      if (record.PK === profileKey.PK && record.SK === profileKey.SK) profile = record as UserProfile;
      else claim = record as EmailClaim;
    }
    pending = batch.unprocessed;
  }
  return { profile, claim };
};

/**
 * Records what a verified session presents, unless a session issued later has recorded already: the
 * profile (its address, when it was seen, the session's issue time) and its claim on the address,
 * which it takes over from any other user whose claim came from an earlier session or who was
 * offboarded. A renamed user gives up the previous address, if still theirs. All in one transaction
 * whose conditions are the issue times and the offboarding mark, so that a replayed older session
 * writes nothing and a session racing its user's offboarding either lands before the mark (and the
 * offboarding then releases what it wrote) or not at all. Answers whether it recorded.
 */
export const recordSession = async (
  session: RecordedSession,
  lastSeenAt: string,
  previousEmail: string | undefined,
): Promise<boolean> => {
  const { userId, email, issuedAt } = session;
  const profileUpdate: TableWrite = {
    Update: {
      Key: userProfileKey(userId),
      UpdateExpression:
        'SET entity = :entity, userId = :userId, email = :email, lastSeenAt = :lastSeenAt, sessionIssuedAt = :issuedAt',
      ConditionExpression:
        '(attribute_not_exists(sessionIssuedAt) OR sessionIssuedAt <= :issuedAt) AND (attribute_not_exists(offboardedAt) OR offboardedAt < :issuedAt)',
      ExpressionAttributeValues: {
        ':entity': 'Profile',
        ':userId': userId,
        ':email': email,
        ':lastSeenAt': lastSeenAt,
        ':issuedAt': issuedAt,
      },
    },
  };
  const claimPut: TableWrite = {
    Put: {
      Item: Object.assign(emailClaimKey(email), { entity: 'EmailClaim', email, userId, issuedAt }),
      ConditionExpression:
        'attribute_not_exists(issuedAt) OR attribute_exists(offboardedAt) OR issuedAt < :issuedAt OR (userId = :userId AND issuedAt = :issuedAt)',
      ExpressionAttributeValues: { ':issuedAt': issuedAt, ':userId': userId },
    },
  };
  const release: TableWrite[] =
    previousEmail !== undefined && previousEmail !== email
      ? [
          {
            Delete: {
              Key: emailClaimKey(previousEmail),
              ConditionExpression: 'userId = :userId AND attribute_not_exists(offboardedAt)',
              ExpressionAttributeValues: { ':userId': userId },
            },
          },
        ]
      : [];
  const outcome = await transactWrite([profileUpdate, claimPut, ...release], [0, 1, 2]);
  if (outcome.ok) return true;
  // The previous address is no longer theirs: record without giving it up.
  if (outcome.conditionFailed.includes(2) && !outcome.conditionFailed.includes(0)) {
    return recordSession(session, lastSeenAt, undefined);
  }
  // A later session recorded already, or the user was offboarded.
  return false;
};

/**
 * Marks a user offboarded from `now` on, whether or not they ever signed in: from then on the
 * authorizer lets in no session issued at or before the mark, and no such session records anything.
 */
export const markProfileOffboarded = async (userId: string, now: Date): Promise<void> => {
  await writeItem({
    Update: {
      Key: userProfileKey(userId),
      UpdateExpression: 'SET entity = :entity, userId = :userId, offboardedAt = :now',
      ExpressionAttributeValues: { ':entity': 'Profile', ':userId': userId, ':now': now.toISOString() },
    },
  });
};

/**
 * Marks an offboarded user's claim on an address, if it is still theirs: the address finds nobody
 * from now on (and a session of another user takes it over), while a second offboarding by the same
 * address still knows whose it was.
 */
export const releaseEmailClaim = async (email: string, userId: string, now: Date): Promise<void> => {
  await writeIfCondition({
    Update: {
      Key: emailClaimKey(email),
      UpdateExpression: 'SET offboardedAt = :now',
      ConditionExpression: 'userId = :userId AND attribute_not_exists(offboardedAt)',
      ExpressionAttributeValues: { ':userId': userId, ':now': now.toISOString() },
    },
  });
};

/**
 * Transaction item that holds only while the address's claim still names this user and they are not
 * offboarded: a write that acts on the user an address resolved to (add or remove a member) fails
 * rather than act on its previous holder.
 */
export const claimStillNames = (email: string, userId: string): TableWrite => ({
  ConditionCheck: {
    Key: emailClaimKey(email),
    ConditionExpression: 'userId = :userId AND attribute_not_exists(offboardedAt)',
    ExpressionAttributeValues: { ':userId': userId },
  },
});
