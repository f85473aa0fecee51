import { DEFAULT_TTL_DAYS } from '@contract/limits';
import type { Scope } from '@contract/scopes';
import {
  createTokenWithinLimit,
  listTokensByUser,
  revokeToken as revokeStoredToken,
  type TokenRecord,
} from '@lambdas/data/token-repository';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { UnauthorizedError } from '@lambdas/domain/errors';
import { canonicalIp } from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';
import { mintToken } from '@lambdas/domain/token-format';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the caller asked for. */
export interface NewToken {
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** Days until expiry; `null` never expires; omitted, `DEFAULT_TTL_DAYS`. */
  readonly ttlDays?: number | null;
}

/** Mints a token bound to the caller's source IP and stores only its hash; the caller is a session. */
export const createToken = async (owner: Principal, request: NewToken, origin: RequestOrigin, now: Date) => {
  const boundIp = canonicalIp(origin.sourceIp ?? '');
  if (!boundIp || owner.issuedAt === undefined) throw new UnauthorizedError();
  const ttlDays = request.ttlDays === undefined ? DEFAULT_TTL_DAYS : request.ttlDays;
  const minted = mintToken();
  const record: TokenRecord = {
    tokenId: minted.tokenId,
    userId: owner.userId,
    name: request.name,
    scopes: request.scopes,
    secretHash: minted.hash,
    boundIp,
    displayPrefix: minted.displayPrefix,
    createdAt: toIso(now),
    expiresAt: ttlDays === null ? null : toIso(new Date(now.getTime() + ttlDays * DAY_MS)),
    lastUsedAt: null,
    ...(owner.email && { ownerEmail: owner.email }),
  };
  const event = auditEvent(
    'token.created',
    origin,
    now,
    { tokenId: record.tokenId },
    { name: record.name, scopes: record.scopes, expiresAt: record.expiresAt },
  );
  await createTokenWithinLimit(record, now, owner.issuedAt, event);
  return {
    id: record.tokenId,
    name: record.name,
    rawToken: minted.rawToken,
    displayPrefix: record.displayPrefix,
    scopes: record.scopes,
    expiresAt: record.expiresAt,
  };
};

/** The caller's tokens as the list shows them: no secret, hash or bound IP. */
export const listTokens = async (owner: Principal) =>
  (await listTokensByUser(owner.userId)).map((token) => ({
    id: token.tokenId,
    name: token.name,
    displayPrefix: token.displayPrefix,
    scopes: token.scopes,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    lastUsedIp: token.lastUsedIp ?? null,
  }));

/** Revokes one of the caller's tokens (its id's form is checked by the route contract). */
export const revokeToken = (owner: Principal, tokenId: string, origin: RequestOrigin, now: Date): Promise<void> =>
  revokeStoredToken(owner.userId, tokenId, auditEvent('token.revoked', origin, now, { tokenId }));
