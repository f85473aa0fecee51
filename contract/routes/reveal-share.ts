import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, timestamp } from '../schemas';
import { SHARE_PARAM_ERRORS, shareParams } from '../share-routes';

// The contract of reveal share (one module per route: a function bundles only its own).

export const revealShareRoute = route({
  method: 'POST',
  path: '/api/v1/shares/{id}/reveal',
  handler: 'reveal-share',
  tag: 'shares',
  tokenScope: 'read:secrets',
  summary: 'Reveal a share: spend one of its views and answer its ciphertext (a POST: no prefetch spends one)',
  success: { status: 200, description: 'The ciphertext, to decrypt with the key in the link; the reveal is recorded' },
  errors: { notFound: [ErrorText.shareNotFound] },
  paramErrors: SHARE_PARAM_ERRORS,
  successMetric: 'SharesRevealed',
  // Least work (reveal a share with views to spare): the share, strongly consistent (its views, its
  // expiry, its recipients and its creator, whose trail records the reveal); then one transaction: the
  // views lowered only if they are still the ones read, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Share', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'Share' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
    // The last view removes the share instead, on the same condition.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Share' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
      beyondFloor: true,
    },
    // A share addressed to recipients: the claims on their addresses, strongly consistent (the newest
    // holder of an address may reveal, not whoever's token or older session carries it), and the
    // spend holds only while the claim the caller holds still names them.
    { operation: 'BatchGetItem', entities: ['EmailClaim'], consistent: true, beyondFloor: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'Share' },
        { action: 'Put', entity: 'AuditEvent' },
        { action: 'ConditionCheck', entity: 'EmailClaim' },
      ],
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    params: shareParams(),
    response: dataBody(
      z.object({
        ciphertext: z.string().check(z.describe('As its creator sent it: decrypt it with the key in the link')),
        viewsLeft: z.int().check(z.describe('Reveals left after this one; 0: this was the last')),
        expiresAt: timestamp(),
        createdBy: z.object({ email: z.nullable(z.string()) }),
      }),
    ),
  }),
  sample: (world) => ({ params: { id: world.shareId } }),
});
