import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import {
  DEFAULT_SHARE_HOURS,
  DEFAULT_SHARE_VIEWS,
  MAX_SHARE_CIPHERTEXT_LENGTH,
  MAX_SHARE_HOURS,
  MAX_SHARE_RECIPIENTS,
  MAX_SHARE_VIEWS,
  MIN_SHARE_HOURS,
  SHARE_BODY_BYTES,
  SHARE_LIMIT,
} from '../limits';
import { route, SAMPLE_SHARE } from '../route';
import { dataBody, email, exactly, typeError } from '../schemas';
import { share } from '../share-routes';

// The contract of create share (one module per route: a function bundles only its own).

export const createShareRoute = route({
  method: 'POST',
  path: '/api/v1/shares',
  handler: 'create-share',
  tag: 'shares',
  tokenScope: 'write:secrets',
  summary: `Share a secret: store a ciphertext the client made, for a few views and hours (at most ${SHARE_LIMIT} live per person)`,
  success: { status: 201, description: 'The share; its link is the client’s, with the key in the fragment' },
  errors: { conflict: [ErrorText.shareLimit] },
  maxBodyBytes: SHARE_BODY_BYTES,
  successMetric: 'SharesCreated',
  // Least work (share under the limit): the caller's share slots say which shares are still live
  // (expired ones free their slot), read strongly since they guard the write; then, in one transaction,
  // the share, the slots (updated only if their version is still the one read) and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'ShareSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Share' },
        { action: 'Update', entity: 'ShareSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
    // A person's first share puts the slot item instead of updating it.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Share' },
        { action: 'Put', entity: 'ShareSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
      beyondFloor: true,
    },
    // At the limit: which of the live slots' shares still exist (a share's last reveal removes it but
    // leaves its slot, so that a reveal stays one write), strongly consistent, in one call.
    { operation: 'BatchGetItem', entities: ['Share'], consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    body: exactly(
      {
        ciphertext: z
          .string({ error: typeError('Give the ciphertext', 'The ciphertext is base64url text') })
          .check(
            z.minLength(1, 'Give the ciphertext'),
            z.maxLength(
              MAX_SHARE_CIPHERTEXT_LENGTH,
              `A ciphertext has at most ${MAX_SHARE_CIPHERTEXT_LENGTH} characters`,
            ),
            z.regex(/^[A-Za-z0-9_-]+$/, 'The ciphertext is base64url text: A-Z, a-z, 0-9, - and _, no padding'),
            z.describe(
              'The secret, encrypted by the client (AES-256-GCM: 12-byte nonce, then ciphertext and tag), base64url; the key never reaches the service',
            ),
          ),
        expiresInHours: z.optional(
          z
            .int({ error: `A whole number of hours from ${MIN_SHARE_HOURS} to ${MAX_SHARE_HOURS}` })
            .check(
              z.gte(MIN_SHARE_HOURS, `A share lives at least ${MIN_SHARE_HOURS} hour`),
              z.lte(MAX_SHARE_HOURS, `A share lives at most ${MAX_SHARE_HOURS} hours`),
              z.describe(
                `Hours until the share expires, ${MIN_SHARE_HOURS} to ${MAX_SHARE_HOURS}; default ${DEFAULT_SHARE_HOURS}`,
              ),
            ),
        ),
        maxViews: z.optional(
          z
            .int({ error: `A whole number of views from 1 to ${MAX_SHARE_VIEWS}` })
            .check(
              z.gte(1, 'A share is revealed at least once'),
              z.lte(MAX_SHARE_VIEWS, `A share is revealed at most ${MAX_SHARE_VIEWS} times`),
              z.describe(`Times the share may be revealed, 1 to ${MAX_SHARE_VIEWS}; default ${DEFAULT_SHARE_VIEWS}`),
            ),
        ),
        recipients: z.optional(
          z.array(email(), 'Send the recipients as a list, e.g. ["colleague@example.com"]').check(
            z.minLength(1, 'List at least one recipient, or leave recipients out for anyone signed in'),
            z.maxLength(MAX_SHARE_RECIPIENTS, `List at most ${MAX_SHARE_RECIPIENTS} recipients`),
            z.refine((list) => new Set(list).size === list.length, 'Name each recipient once'),
            z.describe(
              `The only people who may reveal it, by the e-mail of their session (1 to ${MAX_SHARE_RECIPIENTS}); omitted: anyone signed in`,
            ),
          ),
        ),
      },
      'field',
    ),
    response: dataBody(share()),
  }),
  sample: () => ({ body: { ciphertext: SAMPLE_SHARE.ciphertext, expiresInHours: 24, maxViews: 1 } }),
});
