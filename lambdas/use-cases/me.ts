import type { RequestOrigin } from '@lambdas/domain/audit';
import { UnauthorizedError } from '@lambdas/domain/errors';
import { creatingAddress } from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';

/**
 * The session's user and e-mail, and its address as a token created now would be bound to it (the
 * dashboard cannot see the address the API sees; it asks).
 */
export const describeSession = (principal: Principal, origin: RequestOrigin) => {
  const sourceIp = creatingAddress(origin.sourceIp);
  // A session always carries its verified e-mail and API Gateway always an address: fail closed.
  if (!sourceIp || !principal.email) throw new UnauthorizedError();
  return { userId: principal.userId, email: principal.email, sourceIp };
};
