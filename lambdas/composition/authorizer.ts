import type { AuthorizerDeps } from '@lambdas/authorizer/authorize';
import { verifySession } from '@lambdas/authorizer/session-verifier';
import { getServiceAccount } from '@lambdas/data/service-account-repository';
import { recordTokenDenial, touchTokenLastUsed } from '@lambdas/data/token-mark-repository';
import { getTokenById } from '@lambdas/data/token-repository';
import { readSessionRecords, recordSession } from '@lambdas/data/user-repository';
import { admitSession } from '@lambdas/use-cases/admit-session';

/** What the authorizer decides with: the token read, the session verifier and session admission. */
export const authorizerDeps: AuthorizerDeps = {
  getToken: getTokenById,
  getServiceAccount,
  verifySession,
  admitSession: (identity, now) => admitSession(identity, now, { read: readSessionRecords, record: recordSession }),
};

/** The marks the authorizer writes on a token after deciding: its last use, and a denial's. */
export const tokenMarks = { touchTokenLastUsed, recordTokenDenial };
