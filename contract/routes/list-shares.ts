import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody, timestamp } from '../schemas';
import { share } from '../share-routes';

// The contract of list shares (one module per route: a function bundles only its own).

export const listSharesRoute = route({
  method: 'GET',
  path: '/api/v1/shares',
  handler: 'list-shares',
  tag: 'shares',
  tokenScope: 'read:secrets',
  summary: "List the caller's live shares, newest first (never a ciphertext)",
  success: { status: 200, description: "The caller's shares not yet spent or expired, newest first" },
  errors: {},
  // Least work (list a person's shares): one page of the person's shares in the list index (an index
  // read is eventually consistent); the ciphertexts stay behind (the query asks for the limits only).
  dataAccess: [{ operation: 'Query', entity: 'Share', consistent: false, index: 'GSI1' }],
  schemas: () => ({
    response: dataBody(z.array(z.object({ ...share().shape, createdAt: timestamp() }))),
  }),
  sample: () => ({}),
});
