import type { TokenRecord } from '@lambdas/domain/records';
import type { MintedToken } from '@lambdas/domain/token-format';

/** The stored item of a minted `read:secrets` token of `user-1`, bound to 203.0.113.7; `fields` override. */
export const storedToken = (minted: MintedToken, fields: Partial<TokenRecord> = {}): TokenRecord => ({
  tokenId: minted.tokenId,
  userId: 'user-1',
  name: 'ci',
  scopes: ['read:secrets'],
  secretHash: minted.hash,
  boundIp: '203.0.113.7',
  displayPrefix: minted.displayPrefix,
  createdAt: '2026-11-01T00:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  ...fields,
});
