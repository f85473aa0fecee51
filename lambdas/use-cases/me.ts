import { addedNotice } from '@lambdas/domain/added-notice';
import type { RequestOrigin } from '@lambdas/domain/audit';
import { UnauthorizedError } from '@lambdas/domain/errors';
import { creatingAddress } from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord } from '@lambdas/domain/records';

/** What describing the caller reads: their memberships (the project repository; an in-memory fake in unit tests). */
export interface MembershipReader {
  /** A user's memberships; strongly consistent when asked. */
  listMembershipsByUser(userId: string, consistent: boolean): Promise<MemberRecord[]>;
}

/** The use cases of the caller's own description, over their port. */
export const meUseCases = ({ memberships }: { readonly memberships: MembershipReader }) => {
  /**
   * The session's user and e-mail, its address as a token created now would be bound to it (the
   * dashboard cannot see the address the API sees; it asks), and the projects others added the caller
   * to that the caller has not opened yet, oldest addition first.
   */
  const describeSession = async (principal: Principal, origin: RequestOrigin) => {
    const sourceIp = creatingAddress(origin.sourceIp);
    // A session always carries its verified e-mail and API Gateway always an address: fail closed.
    if (!sourceIp || !principal.email) throw new UnauthorizedError();
    const addedTo = (await memberships.listMembershipsByUser(principal.userId, false))
      .flatMap((membership) => {
        const notice = addedNotice(membership);
        return notice
          ? [{ projectId: membership.projectId, name: membership.projectName, role: membership.role, ...notice }]
          : [];
      })
      .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.projectId.localeCompare(b.projectId));
    return { userId: principal.userId, email: principal.email, sourceIp, addedTo };
  };

  return { describeSession };
};
