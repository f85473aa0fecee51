import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { CHANGE_REQUEST_ID_PATTERN } from './identifiers';
import { timestamp } from './instant';
import { MAX_NOTE_LENGTH, MAX_PATCH_CHANGES } from './limits';
import {
  byName,
  environmentName,
  exactly,
  projectId,
  secretName,
  secretValue,
  updatedBy,
  versionNumber,
} from './schemas';
import type { DataCall } from './work';

/**
 * What the change-request routes share: their path parameters, the request as answered, and what a
 * proposal carries (what a PATCH of secrets carries, restores and a note).
 */

/** Where a change request stands: `expired` is an open one past its 14 days. */
export const changeRequestStatuses = ['open', 'applied', 'rejected', 'cancelled', 'conflicted', 'expired'] as const;

/** One status of a change request. */
export type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

/** What a change request does to one secret. */
export const changeActions = ['set', 'delete', 'restore'] as const;

/** One action of a change request. */
export type ChangeAction = (typeof changeActions)[number];

/** A change request's id (`chg_` + 16 base62 characters). */
export const changeRequestId = () =>
  z.string().check(z.regex(CHANGE_REQUEST_ID_PATTERN, 'Not a change request id'), z.describe('`chg_` + 16 base62'));

/** The path parameters of the routes about one environment's change requests. */
export const changeRequestsParams = () => z.object({ projectId: projectId(), environment: environmentName() });

/** The path parameters of the routes about one change request. */
export const changeRequestParams = () =>
  z.object({ projectId: projectId(), environment: environmentName(), id: changeRequestId() });

/** The 404 each malformed path parameter of a route about one change request answers. */
export const CHANGE_REQUEST_PARAM_ERRORS = {
  projectId: ErrorText.projectNotFound,
  environment: ErrorText.environmentNotFound,
  id: ErrorText.changeRequestNotFound,
} as const;

/** A note or a reason: 1 to 500 characters of text. */
export const note = (what: string) =>
  z
    .string({ error: `Give ${what} as text` })
    .check(
      z.trim(),
      z.minLength(1, `Give ${what}`),
      z.maxLength(
        MAX_NOTE_LENGTH,
        `${what[0]?.toUpperCase()}${what.slice(1)} has at most ${MAX_NOTE_LENGTH} characters`,
      ),
    );

const buildChangeRequest = () =>
  z
    .object({
      id: z.string(),
      environment: z.string(),
      status: z.enum(changeRequestStatuses),
      author: updatedBy(),
      note: z.nullable(z.string()),
      /** Each secret it changes, with the version it was proposed on (0: none). */
      changes: z.array(
        z.object({
          name: z.string(),
          action: z.enum(changeActions),
          fromVersion: z.int(),
          /** `restore`: the version whose value it writes again. */
          restoreVersion: z.nullable(z.int()),
        }),
      ),
      /** Who approved it, in order. */
      approvals: z.array(z.object({ userId: z.string(), email: z.nullable(z.string()), at: timestamp() })),
      /** The approvals it needs (the environment's, when it was proposed). */
      approvalsNeeded: z.int(),
      createdAt: timestamp(),
      expiresAt: timestamp(),
      /** Who closed it and when (applied, rejected, cancelled, conflicted); null while open. */
      closedBy: z.nullable(updatedBy()),
      closedAt: z.nullable(timestamp()),
      /** `applied` by the owner without its approvals: the reason they gave. */
      forcedReason: z.nullable(z.string()),
    })
    .check(
      z.meta({ id: 'ChangeRequest' }),
      z.describe('A proposed change of an environment’s secrets, without its values'),
    );
let changeRequestSchema: ReturnType<typeof buildChangeRequest> | undefined;

/** A change request as the API answers it, never with its values (one schema, named once in the document). */
export const changeRequest = () => {
  changeRequestSchema ??= buildChangeRequest();
  return changeRequestSchema;
};

/** What a proposal carries: a PATCH's `set`, `delete` and `expectedVersions`, a `restore` list and a `note`. */
export const changeProposal = () =>
  exactly(
    {
      set: z.optional(byName(secretValue())),
      delete: z.optional(z.array(secretName(), { error: 'Send the names to delete as a list, e.g. ["OLD_KEY"]' })),
      restore: z.optional(
        z.array(exactly({ name: secretName(), version: versionNumber(1) }, 'field'), {
          error: 'Send the versions to restore as a list, e.g. [{"name": "API_KEY", "version": 2}]',
        }),
      ),
      expectedVersions: z.optional(byName(versionNumber(0))),
      note: z.optional(note('a note')),
    },
    'field',
  ).check(
    z.refine(
      (body) => {
        const count = Object.keys(body.set ?? {}).length + (body.delete?.length ?? 0) + (body.restore?.length ?? 0);
        return count >= 1 && count <= MAX_PATCH_CHANGES;
      },
      { message: `Propose 1 to ${MAX_PATCH_CHANGES} changes: set, delete and restore together`, path: ['set'] },
    ),
    z.refine(
      (body) => {
        const names = [
          ...Object.keys(body.set ?? {}),
          ...(body.delete ?? []),
          ...(body.restore ?? []).map((entry) => entry.name),
        ];
        return new Set(names).size === names.length;
      },
      { message: 'Name each secret once: set, delete or restore it', path: ['delete'] },
    ),
    z.refine(
      (body) =>
        Object.keys(body.expectedVersions ?? {}).every(
          (name) =>
            Object.hasOwn(body.set ?? {}, name) ||
            (body.delete ?? []).includes(name) ||
            (body.restore ?? []).some((entry) => entry.name === name),
        ),
      { message: 'Expect versions only of the secrets this request changes', path: ['expectedVersions'] },
    ),
  );

/**
 * The writes of a proposal, after its reads: atomically, the membership and the environment checked
 * again, the slots moved on (the limit of open requests), the request, each proposed value sealed
 * apart, and the event; an environment's first request puts its slots (beyond the floor), and, with
 * `storesKey`, a project's first value stores its data key. One list for the routes that propose:
 * create-change-request, and promote into a protected environment (whose sources hold the key).
 */
export const proposalWrites = ({
  beyondFloor,
  storesKey,
}: {
  beyondFloor: boolean;
  storesKey: boolean;
}): DataCall[] => [
  {
    operation: 'TransactWriteItems',
    actions: [
      { action: 'ConditionCheck', entity: 'Member' },
      { action: 'ConditionCheck', entity: 'Environment' },
      { action: 'Update', entity: 'ChangeSlots' },
      { action: 'Put', entity: 'ChangeRequest' },
      { action: 'Put', entity: 'ProposedValue' },
      { action: 'Put', entity: 'ProjectAuditEvent' },
    ],
    ...(beyondFloor && { beyondFloor: true }),
  },
  {
    operation: 'TransactWriteItems',
    actions: [
      { action: 'ConditionCheck', entity: 'Member' },
      { action: 'ConditionCheck', entity: 'Environment' },
      { action: 'Put', entity: 'ChangeSlots' },
      { action: 'Put', entity: 'ChangeRequest' },
      { action: 'Put', entity: 'ProposedValue' },
      { action: 'Put', entity: 'ProjectAuditEvent' },
      ...(storesKey ? [{ action: 'Update', entity: 'Project' } as const] : []),
    ],
    beyondFloor: true,
  },
];
