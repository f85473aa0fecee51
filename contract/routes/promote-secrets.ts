import * as z from 'zod/mini';
import { changeRequest, note, proposalWrites } from '../change-requests';
import { ErrorText } from '../errors';
import { MAX_PATCH_CHANGES } from '../limits';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, projectId, secretChange, secretName, versionsByName } from '../schemas';
import { accessDenial, environmentPair, twoEnvironments } from '../secret-routes';

// The contract of promote secrets (one module per route: a function bundles only its own).

export const promoteSecretsRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/promote',
  handler: 'promote-secrets',
  tag: 'secrets',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: `Copy up to ${MAX_PATCH_CHANGES} secrets’ current values from one environment into another: all of them, or none`,
  success: {
    status: 200,
    description: 'Each secret written in `to`, by name, at its new version',
    created: 'Where `to` is protected: nothing written, the change proposed as a change request of `to`, open',
  },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.secretNotFound],
    conflict: [
      ErrorText.environmentProtected,
      ErrorText.secretConflict,
      ErrorText.secretLimit,
      ErrorText.changeRequestLimit,
    ],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  successMetric: 'SecretsPromoted',
  // Least work (promote secrets): the caller's membership, both environments, the project's wrapped
  // data key and each named secret's head in both, strongly consistent in one call; the data key from
  // the function's cache; then one transaction: the membership checked again, the target environment's
  // counts kept under its limits, and per secret its head in `to` (only if its version is still the one
  // read), its new version and its event, and the one `secret.read` event of the sources. Into a
  // protected environment: the sources' read recorded, then a change request proposed as its route does
  // (the target's context read again, its slots, and the request written atomically).
  keyUse: ['Decrypt'],
  dataAccess: [
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'Environment', 'SecretHead', 'SecretHead', 'Project'],
      consistent: true,
    },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'Environment' },
        { action: 'Put', entity: 'SecretHead' },
        { action: 'Put', entity: 'SecretVersion' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    accessDenial,
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'SecretHead', 'Project'],
      consistent: true,
      beyondFloor: true,
    },
    { operation: 'GetItem', entity: 'ChangeSlots', consistent: true, beyondFloor: true },
    ...proposalWrites({ beyondFloor: true, storesKey: false }),
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: exactly(
      {
        ...environmentPair(),
        names: z.array(secretName(), { error: 'Send the names to promote as a list, e.g. ["API_KEY"]' }).check(
          z.minLength(1, `Name 1 to ${MAX_PATCH_CHANGES} secrets`),
          z.maxLength(MAX_PATCH_CHANGES, `Name 1 to ${MAX_PATCH_CHANGES} secrets`),
          z.refine((names) => new Set(names).size === names.length, 'Name each secret once'),
          z.describe(`The secrets to promote, 1 to ${MAX_PATCH_CHANGES}, each once`),
        ),
        expectedVersions: z.optional(
          versionsByName().check(
            z.describe('Write a secret only if this is still its current version in `to` (0: only if it has none)'),
          ),
        ),
        note: z.optional(
          note('a note').check(
            z.describe('Where `to` is protected: the change request’s note, for whoever approves it'),
          ),
        ),
      },
      'field',
    ).check(
      twoEnvironments(),
      z.refine((body) => Object.keys(body.expectedVersions ?? {}).every((name) => body.names.includes(name)), {
        message: 'Expect versions only of the secrets this request promotes',
        path: ['expectedVersions'],
      }),
    ),
    response: dataBody(z.union([z.array(secretChange()), changeRequest()])),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { from: SAMPLE_SECRET.environment, to: 'staging', names: [SAMPLE_SECRET.name] },
  }),
});
