import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { PROJECT_ID_PATTERN } from '../identifiers';
import { DEFAULT_TTL_DAYS, MAX_TOKEN_ENVIRONMENTS, MAX_TOKEN_PROJECTS, MAX_TTL_DAYS } from '../limits';
import { route } from '../route';
import { allowedIps, dataBody, environmentName, exactly, name, newTokenFields, typeError } from '../schemas';
import { scopes } from '../scopes';
import { TOKENS_CREATED_METRIC } from '../service-metrics';

// The contract of create token (one module per route: a function bundles only its own).

export const createTokenRoute = route({
  method: 'POST',
  path: '/api/v1/tokens',
  handler: 'create-token',
  tag: 'tokens',
  tokenScope: null,
  summary: 'Create an API token (dashboard session only)',
  success: { status: 201, description: 'The new token; `rawToken` appears in this response only' },
  errors: { notFound: [ErrorText.projectNotFound], conflict: [ErrorText.tokenLimit] },
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
    // A token limited to projects: the caller's membership of each (up to ten), in one read, strongly
    // consistent since it decides access, before the transaction; from the caller's own copies, so
    // that the function reads nothing in a project's partition.
    { operation: 'BatchGetItem', entities: ['Membership'], consistent: true, beyondFloor: true },
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
    body: exactly(
      {
        name: name(),
        scopes: z
          .array(z.enum(scopes, `Not a scope: the scopes are ${scopes.join(', ')}`), {
            error: typeError('Choose at least one scope', 'Send the scopes as a list, e.g. ["read:secrets"]'),
          })
          .check(
            z.minLength(1, 'Choose at least one scope'),
            z.refine((list) => new Set(list).size === list.length, 'Name each scope once'),
          ),
        ttlDays: z.optional(
          z
            .nullable(
              z
                .int(`A whole number of days from 1 to ${MAX_TTL_DAYS}, or null for a token that never expires`)
                .check(
                  z.gte(1, 'A token lives at least 1 day'),
                  z.lte(MAX_TTL_DAYS, `A token lives at most ${MAX_TTL_DAYS} days; null: it never expires`),
                ),
            )
            .check(z.describe(`Days until expiry; \`null\`: never; omitted: ${DEFAULT_TTL_DAYS}`)),
        ),
        allowedIps: z.optional(allowedIps()),
        projects: z.optional(
          z
            .array(
              exactly(
                {
                  projectId: z
                    .string({ error: typeError('Give the project’s id', 'A project id is text') })
                    .check(z.regex(PROJECT_ID_PATTERN, 'Not a project id')),
                  environments: z.optional(
                    z.array(environmentName(), 'Send the environments as a list, e.g. ["production"]').check(
                      z.minLength(1, 'List at least one environment, or leave environments out for all of them'),
                      z.maxLength(MAX_TOKEN_ENVIRONMENTS, `List at most ${MAX_TOKEN_ENVIRONMENTS} environments`),
                      z.refine((list) => new Set(list).size === list.length, 'Name each environment once'),
                      z.describe('The environments it reaches in that project; omitted: all of them'),
                    ),
                  ),
                },
                'field',
              ),
              'Send the projects as a list, e.g. [{"projectId": "prj_…"}]',
            )
            .check(
              z.minLength(1, 'List at least one project, or leave projects out for all of yours'),
              z.maxLength(MAX_TOKEN_PROJECTS, `List at most ${MAX_TOKEN_PROJECTS} projects`),
              z.refine(
                (list) => new Set(list.map((entry) => entry.projectId)).size === list.length,
                'Name each project once',
              ),
              z.describe(
                `The projects (1 to ${MAX_TOKEN_PROJECTS}, each a project of the caller's) and environments the token reaches; omitted: all of the caller's`,
              ),
            ),
        ),
      },
      'field',
    ),
    response: dataBody(z.object(newTokenFields())),
  }),
  sample: () => ({ body: { name: 'ci-pipeline', scopes: ['read:secrets', 'admin'], ttlDays: 30 } }),
});
