import * as z from 'zod/mini';
import { route } from '../route';
import { dataBody } from '../schemas';

// The contract of get me (one module per route: a function bundles only its own).

export const getMeRoute = route({
  method: 'GET',
  path: '/api/v1/me',
  handler: 'get-me',
  tag: 'tokens',
  tokenScope: null,
  summary: 'The caller as the API sees it: user, e-mail and source address (dashboard session only)',
  success: {
    status: 200,
    description: "The session's user and e-mail, and the address a token created now without `allowedIps` is bound to",
  },
  errors: {},
  // Least work: none. The user and e-mail are the session's, as the authorizer verified them; the
  // address is the one API Gateway saw.
  dataAccess: [],
  schemas: () => ({
    response: dataBody(
      z.object({
        userId: z.string().check(z.describe("The identity provider's stable subject (`sub`)")),
        email: z.string().check(z.describe("The session's verified e-mail, lower-cased")),
        sourceIp: z
          .string()
          .check(z.describe('The source address API Gateway saw, canonical: what a new token is bound to by default')),
      }),
    ),
  }),
  sample: () => ({}),
});
