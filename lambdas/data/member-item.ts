import { serviceAccountMember } from '@lambdas/domain/environment-access';
import type { MemberRecord, ServiceAccountRecord } from '@lambdas/domain/records';

/**
 * A member's item as read by `memberKey`, or the service account's item read in its place: the member
 * it stands as (a plain member with its access and no default), never its item as it is, whose missing
 * role must not read as more.
 */
export const asMember = (item: Record<string, unknown> | undefined): MemberRecord | undefined => {
  if (item === undefined) return undefined;
  return item.entity === 'ServiceAccount'
    ? serviceAccountMember(item as unknown as ServiceAccountRecord)
    : (item as unknown as MemberRecord);
};
