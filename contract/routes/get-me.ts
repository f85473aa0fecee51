import * as z from 'zod/mini';
import { route } from '../route';
import { adder, dataBody, projectId, role, timestamp } from '../schemas';

// The contract of get me (one module per route: a function bundles only its own).

export const getMeRoute = route({
  method: 'GET',
  path: '/api/v1/me',
  handler: 'get-me',
  tag: 'tokens',
  tokenScope: null,
  summary:
    'The caller as the API sees it: user, e-mail, source address, and the projects they were added to and have not opened (dashboard session only)',
  success: {
    status: 200,
    description:
      "The session's user and e-mail, the address a token created now without `allowedIps` is bound to, and the projects others added the caller to that the caller has not opened yet",
  },
  errors: {},
  // Least work (list a user’s projects): One page of the memberships in the user’s own partition, for
  // those not opened yet. The user and e-mail are the session's, as the authorizer verified them; the
  // address is the one API Gateway saw.
  dataAccess: [{ operation: 'Query', entity: 'Membership', consistent: false }],
  schemas: () => ({
    response: dataBody(
      z.object({
        userId: z.string().check(z.describe("The identity provider's stable subject (`sub`)")),
        email: z.string().check(z.describe("The session's verified e-mail, lower-cased")),
        sourceIp: z
          .string()
          .check(z.describe('The source address API Gateway saw, canonical: what a new token is bound to by default')),
        addedTo: z
          .array(
            z.object({
              projectId: projectId(),
              name: z.string(),
              role: role(),
              addedBy: adder(),
              addedAt: timestamp(),
            }),
          )
          .check(
            z.describe(
              'The projects someone else added the caller to and the caller has not opened yet (`POST …/members/me/seen`), oldest addition first',
            ),
          ),
      }),
    ),
  }),
  sample: () => ({}),
});
