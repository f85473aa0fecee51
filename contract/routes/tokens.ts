import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { DEFAULT_TTL_DAYS, MAX_TTL_DAYS } from '../limits';
import { route } from '../route';
import { apiToken, dataBody, displayPrefix, name, scope, successBody, timestamp, tokenId } from '../schemas';
import { scopes } from '../scopes';
import { TOKENS_CREATED_METRIC, TOKENS_REVOKED_METRIC } from '../service-metrics';

// The token routes' contracts (one module per resource: a function bundles only its own).

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
  });

export const createTokenRoute = route({
  method: 'POST',
  path: '/api/v1/tokens',
  handler: 'create-token',
  tokenScope: null,
  summary: 'Create an API token (dashboard session only)',
  success: { status: 201, description: 'The new token; `rawToken` appears in this response only' },
  errors: { conflict: [ErrorText.tokenLimit] },
  successMetric: TOKENS_CREATED_METRIC,
  // Least work (create a token under the limit): The slots say which tokens are still live (expired
  // ones free their slot), so they must be read; the version check makes a stale read safe, but it
  // would cancel a 6-unit transaction and retry, so the read is strong (0.5 units more on a rare
  // route). Token and slots in one transaction; the slots are updated (put for a user’s first
  // token).
  dataAccess: [
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
    // A user's first token puts the slot item instead of updating it.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Put', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    body: z.strictObject({
      name: name(),
      scopes: z.array(z.enum(scopes)).check(
        z.minLength(1),
        z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
      ),
      ttlDays: z.optional(
        z
          .nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS)))
          .check(z.describe(`Days until expiry; \`null\`: never; omitted: ${DEFAULT_TTL_DAYS}`)),
      ),
    }),
    response: dataBody(
      z.object({
        id: tokenId(),
        name: z.string(),
        rawToken: apiToken(),
        displayPrefix: displayPrefix(),
        scopes: z.array(scope()),
        expiresAt: z.nullable(timestamp()),
      }),
    ),
  }),
  sample: () => ({ body: { name: 'ci-pipeline', scopes: ['read:secrets', 'admin'], ttlDays: 30 } }),
});

export const listTokensRoute = route({
  method: 'GET',
  path: '/api/v1/tokens',
  handler: 'list-tokens',
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

export const revokeTokenRoute = route({
  method: 'DELETE',
  path: '/api/v1/tokens/{id}',
  handler: 'revoke-token',
  tokenScope: 'admin',
  summary: 'Revoke one of the caller’s tokens',
  success: { status: 200, description: 'Revoked; its next use is a 401' },
  errors: { notFound: [ErrorText.tokenNotFound] },
  paramErrors: { id: ErrorText.tokenNotFound },
  successMetric: TOKENS_REVOKED_METRIC,
  // Least work (revoke a token): The owner check is the Delete’s condition, so no read; the slot is
  // freed in the same transaction.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
  ],
  schemas: () => ({ params: z.object({ id: tokenId() }), response: successBody() }),
  sample: (world) => ({ params: { id: world.tokenId } }),
});
