import { toIso } from '@lambdas/domain/clock';
import type { EmailClaim, RecordedSession, UserProfile } from '@lambdas/domain/records';

/** A session's profile is refreshed at most this often while its address stays its user's. */
export const PROFILE_REFRESH_MS = 24 * 60 * 60_000;

/** What admitting a session reads and writes (the user repository; a fake in unit tests). */
export interface SessionRecords {
  /** The user's profile and the claim on the session's address, strongly consistent, in one call. */
  read(userId: string, email: string): Promise<{ profile: UserProfile | undefined; claim: EmailClaim | undefined }>;
  /** Records the session unless a newer one has; answers whether it did. */
  record(session: RecordedSession, lastSeenAt: string, previousEmail: string | undefined): Promise<boolean>;
}

/** Whether the profile and the claim already say what this session would record, and recently. */
const isRecorded = (
  session: RecordedSession,
  profile: UserProfile | undefined,
  claim: EmailClaim | undefined,
  now: Date,
): boolean =>
  profile?.email === session.email &&
  profile.lastSeenAt !== undefined &&
  now.getTime() - Date.parse(profile.lastSeenAt) < PROFILE_REFRESH_MS &&
  claim?.userId === session.userId &&
  claim.offboardedAt === undefined;

/**
 * Whether this session may record at all: it is its user's newest, and the claim on its address came
 * from an older session (or its own), or its holder was offboarded. The write checks the same again.
 */
const mayRecord = (session: RecordedSession, profile: UserProfile | undefined, claim: EmailClaim | undefined) =>
  (profile?.sessionIssuedAt === undefined || profile.sessionIssuedAt <= session.issuedAt) &&
  (claim === undefined ||
    claim.offboardedAt !== undefined ||
    claim.issuedAt === undefined ||
    claim.issuedAt < session.issuedAt ||
    (claim.userId === session.userId && claim.issuedAt === session.issuedAt));

/**
 * Admits a verified session on any route: refused (false) when its user was offboarded at or after
 * the moment it was issued, whatever the route and however warm the function. Otherwise it records
 * the profile and the address's claim when they do not say what the session presents (a new address,
 * a claim another user's older session took, or a day since the last record), so that the user is
 * found by their newest address when added to a project.
 */
export const admitSession = async (session: RecordedSession, now: Date, records: SessionRecords): Promise<boolean> => {
  const { profile, claim } = await records.read(session.userId, session.email);
  // ISO 8601 instants of one format compare as text; a session of the very second of the mark is refused.
  if (profile?.offboardedAt !== undefined && !(session.issuedAt > profile.offboardedAt)) return false;
  if (!isRecorded(session, profile, claim, now) && mayRecord(session, profile, claim)) {
    await records.record(session, toIso(now), profile?.email);
  }
  return true;
};
