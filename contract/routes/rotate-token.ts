import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, newTokenFields, rotationBody, timestamp, tokenId } from '../schemas';
import { TOKENS_ROTATED_METRIC } from '../service-metrics';

// The contract of rotate token (one module per route: a function bundles only its own).

export const rotateTokenRoute = route({
  method: 'POST',
  path: '/api/v1/tokens/{id}/rotate',
  handler: 'rotate-token',
  tag: 'tokens',
  tokenScope: null,
  summary:
    'Replace one of the caller’s tokens with a new one, the old one working on for a grace period (dashboard session only)',
  success: {
    status: 201,
    description:
      'The new token: same name, scopes and addresses, the same lifetime counted from now; `rawToken` appears in this response only',
  },
  errors: { notFound: [ErrorText.tokenNotFound], conflict: [ErrorText.tokenRotated, ErrorText.tokenLimit] },
  paramErrors: { id: ErrorText.tokenNotFound },
  successMetric: TOKENS_ROTATED_METRIC,
  // Least work (rotate a token): The old token is read to copy it, strongly: an eventual read could
  // miss a token created a moment ago and answer 404 (a stale rotated or revoked state the transaction's
  // condition would catch). The slots as when creating. One transaction marks the old token
  // replaced (its condition: still the caller's, not rotated yet), puts the new one, moves the old
  // one's slot to when it stops and takes one for the new one, and records the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Token', consistent: true },
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'Token' },
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
    // As when creating, a user without a slot item gets it put (a token's creation puts it, so only a
    // token written around the API meets this).
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'Token' },
        { action: 'Put', entity: 'Token' },
        { action: 'Put', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
      beyondFloor: true,
    },
    // A rotation that lost a race to another rotation or a revoke reads the token again to say which.
    { operation: 'GetItem', entity: 'Token', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({ id: tokenId() }),
    body: rotationBody(),
    response: dataBody(
      z.object({
        ...newTokenFields(),
        allowedIps: z.nullable(
          z.array(z.string()).check(z.describe("The old token's addresses; null: its creating address")),
        ),
        replaces: z.object({
          id: tokenId(),
          stopsAt: timestamp().check(z.describe('When the old token stops working')),
        }),
      }),
    ),
  }),
  sample: (world) => ({ params: { id: world.tokenId }, body: { graceHours: 1 } }),
});
