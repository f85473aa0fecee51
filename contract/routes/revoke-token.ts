import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody, tokenId } from '../schemas';
import { TOKENS_REVOKED_METRIC } from '../service-metrics';

// The contract of revoke token (one module per route: a function bundles only its own).

export const revokeTokenRoute = route({
  method: 'DELETE',
  path: '/api/v1/tokens/{id}',
  handler: 'revoke-token',
  tag: 'tokens',
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
