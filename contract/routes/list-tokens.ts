import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody, displayPrefix, scope, timestamp, tokenId, tokenProjects } from '../schemas';

// The contract of list tokens (one module per route: a function bundles only its own).

const tokenListEntry = () =>
  z.object({
    id: tokenId(),
    name: z.string(),
    displayPrefix: displayPrefix(),
    scopes: z.array(scope()),
    createdAt: timestamp(),
    expiresAt: z.nullable(timestamp()),
    lastUsedAt: z.nullable(timestamp()),
    lastUsedIp: z.nullable(z.string().check(z.describe('The address of that use, as API Gateway saw it'))),
    allowedIps: z.nullable(
      z.array(z.string()).check(z.describe('The addresses and networks it works from; null: its creating address')),
    ),
    replacedBy: z.nullable(tokenId().check(z.describe('The token that replaces it, once rotated'))),
    stopsAt: z.nullable(
      timestamp().check(
        z.describe('When a rotated token stops working (its grace period’s end, or its expiry if sooner)'),
      ),
    ),
    projects: tokenProjects(),
  });

export const listTokensRoute = route({
  method: 'GET',
  path: '/api/v1/tokens',
  handler: 'list-tokens',
  tag: 'tokens',
  tokenScope: 'admin',
  summary: "List the caller's tokens, newest first",
  success: { status: 200, description: "The caller's active and expired tokens, newest first" },
  errors: {},
  // Least work (list a user’s tokens): One page of the user’s partition of the list index (an index
  // read is eventually consistent).
  dataAccess: [{ operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' }],
  schemas: () => ({ response: dataBody(z.array(tokenListEntry())) }),
  sample: () => ({}),
});
