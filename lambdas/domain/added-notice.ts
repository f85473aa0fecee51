import type { Adder, MemberRecord } from './records';

/** Who added a member and when, as the member's notice shows it. */
export interface AddedNotice {
  readonly addedBy: Adder;
  readonly addedAt: string;
}

/**
 * The notice of a membership its member has not opened yet: who added them, and when. None for an
 * owner (nobody added them), for a membership added before adders were recorded, and once the member
 * opened the project.
 */
export const addedNotice = (membership: MemberRecord): AddedNotice | undefined =>
  membership.addedBy !== undefined && membership.seenAt === undefined
    ? { addedBy: membership.addedBy, addedAt: membership.addedAt }
    : undefined;
