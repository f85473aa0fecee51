import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, timestamp } from '../schemas';
import { SHARE_PARAM_ERRORS, shareParams } from '../share-routes';

// The contract of get share (one module per route: a function bundles only its own).

export const getShareRoute = route({
  method: 'GET',
  path: '/api/v1/shares/{id}',
  handler: 'get-share',
  tag: 'shares',
  tokenScope: 'read:secrets',
  summary: 'Look at a share before revealing it: who shared it, its views left and expiry (spends nothing)',
  success: { status: 200, description: 'Who shared it and what is left of it; never its ciphertext' },
  errors: { notFound: [ErrorText.shareNotFound] },
  paramErrors: SHARE_PARAM_ERRORS,
  // Least work (look at a share): the share, whose expiry and recipients decide whether the caller may
  // see it; strongly consistent, so that a link opened the moment it was made finds its share.
  dataAccess: [
    { operation: 'GetItem', entity: 'Share', consistent: true },
    // A share addressed to recipients: the claims on their addresses, strongly consistent (only the
    // newest holder of one may see it).
    { operation: 'BatchGetItem', entities: ['EmailClaim'], consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: shareParams(),
    response: dataBody(
      z.object({ viewsLeft: z.int(), expiresAt: timestamp(), createdBy: z.object({ email: z.nullable(z.string()) }) }),
    ),
  }),
  sample: (world) => ({ params: { id: world.shareId } }),
});
