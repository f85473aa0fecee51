import type { AuditEvent } from '@contract/audit';
import type { ChangeRequestStatus } from '@contract/change-requests';
import { ErrorText } from '@contract/errors';
import { CHANGE_REQUEST_ID_PREFIX, CHANGE_REQUEST_ID_RANDOM_LENGTH } from '@contract/identifiers';
import { CHANGE_REQUEST_DAYS, MAX_OPEN_CHANGE_REQUESTS } from '@contract/limits';
import type { DataKeys, SealedValue, ValueAddress } from '@lambdas/crypto/envelope';
import { auditEvent } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { DEFAULT_APPROVALS } from '@lambdas/domain/environment-access';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type {
  ChangeRequestRecord,
  EnvironmentRecord,
  MemberRecord,
  NewChangeRequest,
  ProposedChange,
  ProposedValue,
  SecretAuthor,
  SecretHeadRecord,
  StoredSlotMap,
} from '@lambdas/domain/records';
import { canManageMembers } from '@lambdas/domain/roles';
import { randomBase62 } from '@lambdas/domain/token-format';
import {
  backoffMs,
  type Change,
  ChangeRequestMoved,
  type FoundContext,
  type InEnvironment,
  type InProject,
  type Pair,
  promoteSecrets,
  record,
  requireContext,
  type SecretDeps,
  type Written,
  write,
} from './secrets';

/** What the change-request use cases read and write (the change-request repository). */
export interface ChangeRequestStore {
  getChangeRequest(projectId: string, environment: string, id: string): Promise<ChangeRequestRecord | undefined>;
  listChangeRequests(projectId: string, environment: string): Promise<ChangeRequestRecord[]>;
  getProposedValues(projectId: string, environment: string, id: string): Promise<ProposedValue[]>;
  getChangeSlots(projectId: string, environment: string): Promise<StoredSlotMap | undefined>;
  createChangeRequest(created: NewChangeRequest): Promise<'written' | 'changed'>;
  updateChangeRequest(
    read: ChangeRequestRecord,
    next: ChangeRequestRecord,
    events: readonly AuditEvent[],
    actor: { readonly userId: string; readonly byManager: boolean },
  ): Promise<'written' | 'requestChanged' | 'refused'>;
}

/** How proposed values are sealed: the envelope, over the projects' data keys. */
export interface ProposalCrypto {
  readonly keys: DataKeys;
  encryptValue(key: Uint8Array, address: ValueAddress, value: string): Required<SealedValue>;
  decryptValue(key: Uint8Array, address: ValueAddress, stored: SealedValue): string;
}

/** What a proposal asks: a PATCH's set, delete and expected versions, restores, and a note. */
export interface Proposal {
  readonly set?: Readonly<Record<string, string>>;
  readonly delete?: readonly string[];
  readonly restore?: readonly { readonly name: string; readonly version: number }[];
  readonly expectedVersions?: Readonly<Record<string, number>>;
  readonly note?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Attempts of a step whose request or slots another step moved first. */
const ATTEMPTS = 8;

/** A new change request id: `chg_` + 16 random base62 characters. */
export const newChangeRequestId = (): string =>
  `${CHANGE_REQUEST_ID_PREFIX}${randomBase62(CHANGE_REQUEST_ID_RANDOM_LENGTH)}`;

/** Where a request stands now: an open one past its expiry has expired. */
const statusOf = (request: ChangeRequestRecord, now: Date): ChangeRequestStatus =>
  request.status === 'open' && Date.parse(request.expiresAt) <= now.getTime() ? 'expired' : request.status;

/** The request if it is open: 409 otherwise. */
const open = (request: ChangeRequestRecord, at: InEnvironment): ChangeRequestRecord => {
  if (statusOf(request, at.now) !== 'open') throw new ConflictError(ErrorText.changeRequestNotOpen);
  return request;
};

/** An open request of an environment, with what the caller is there. */
type OpenRequest = FoundContext & { readonly request: ChangeRequestRecord };
/** An open request as a step that may apply it reads it: with the project and the proposed values. */
type ApplicableRequest = OpenRequest & { readonly sealed: readonly ProposedValue[] };

const authorOf = (at: InEnvironment): SecretAuthor => ({ userId: at.caller.userId, email: at.caller.email ?? null });

/** What the change-request use cases work over: their store, the envelope, and the secrets they apply through. */
export interface ChangeRequestDeps {
  readonly changes: ChangeRequestStore;
  readonly crypto: ProposalCrypto;
  readonly secrets: SecretDeps;
}

/** A proposed value's address: bound to its request, so it opens as no head's or version's, nor another request's. */
const proposalAddress = (request: { projectId: string; environment: string; id: string }, name: string) => ({
  projectId: request.projectId,
  environment: request.environment,
  name,
  life: request.id,
  version: 0,
  copy: 'proposal' as const,
});

/** A request as the API answers it, never with its values. */
const shown = (request: ChangeRequestRecord, environment: EnvironmentRecord, now: Date) => ({
  id: request.id,
  environment: request.environment,
  status: statusOf(request, now),
  author: request.author,
  note: request.note ?? null,
  changes: request.changes.map((change) => ({
    name: change.name,
    action: change.action,
    fromVersion: change.fromVersion,
    restoreVersion: change.restoreVersion ?? null,
  })),
  approvals: [...request.approvals],
  approvalsNeeded: environment.approvals ?? DEFAULT_APPROVALS,
  createdAt: request.createdAt,
  expiresAt: request.expiresAt,
  closedBy: request.closedBy ?? null,
  closedAt: request.closedAt ?? null,
  forcedReason: request.forcedReason ?? null,
});

/** The request read, of this life of the environment (404 otherwise). */
const found = (request: ChangeRequestRecord | undefined, environment: EnvironmentRecord) => {
  if (!request || request.environmentLife !== environment.life) {
    throw new NotFoundError(ErrorText.changeRequestNotFound);
  }
  return request;
};

/** The event of a step of a request. */
const eventOf = (
  type: AuditEvent['type'],
  at: InEnvironment,
  id: string,
  details: Partial<AuditEvent['details']> = {},
): AuditEvent =>
  auditEvent(
    type,
    at.origin,
    at.now,
    { projectId: at.projectId, changeRequestId: id },
    { environment: at.environment, ...details },
  );

/** Proposes a change of the environment (needs `write` there): 201 with the request, without its values. */
export const proposeChange = async (deps: ChangeRequestDeps, at: InEnvironment, proposal: Proposal) => {
  const expected = new Map(Object.entries(proposal.expectedVersions ?? {}));
  const set = Object.entries(proposal.set ?? {});
  const names = [
    ...set.map(([name]) => name),
    ...(proposal.delete ?? []),
    ...(proposal.restore ?? []).map((entry) => entry.name),
  ];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const [context, slots] = await Promise.all([
      requireContext(deps.secrets, at, names, set.length > 0, 'write', true),
      deps.changes.getChangeSlots(at.projectId, at.environment),
    ]);
    const { member, environment } = context;
    const liveVersion = (name: string): number => {
      const head: SecretHeadRecord | undefined = context.heads.get(name);
      return head !== undefined && head.deletedAt === undefined && head.environmentLife === environment.life
        ? head.version
        : 0;
    };
    const proposed: ProposedChange[] = [];
    const judge = (name: string) => {
      const from = liveVersion(name);
      const stated = expected.get(name);
      if (stated !== undefined && stated !== from) throw new ConflictError(ErrorText.secretConflict);
      return from;
    };
    for (const [name] of set) proposed.push({ name, action: 'set', fromVersion: judge(name) });
    for (const name of proposal.delete ?? []) {
      const fromVersion = judge(name);
      if (fromVersion === 0) throw new NotFoundError(ErrorText.secretNotFound);
      proposed.push({ name, action: 'delete', fromVersion });
    }
    for (const { name, version } of proposal.restore ?? []) {
      const fromVersion = judge(name);
      const head = context.heads.get(name);
      if (head === undefined || head.environmentLife !== environment.life) {
        throw new NotFoundError(ErrorText.secretNotFound);
      }
      if (version >= head.version) throw new NotFoundError(ErrorText.secretVersionNotFound);
      proposed.push({ name, action: 'restore', fromVersion, restoreVersion: version });
    }
    const now = at.now.getTime();
    const open = Object.entries(slots?.slots ?? {});
    const expired = open.filter(([, expiry]) => expiry <= now).map(([id]) => id);
    if (open.length - expired.length >= MAX_OPEN_CHANGE_REQUESTS) {
      throw new ConflictError(ErrorText.changeRequestLimit);
    }
    const id = newChangeRequestId();
    const expiresAt = new Date(now + CHANGE_REQUEST_DAYS * DAY_MS);
    const request: ChangeRequestRecord = {
      projectId: at.projectId,
      environment: at.environment,
      ...(environment.life !== undefined && { environmentLife: environment.life }),
      id,
      status: 'open',
      author: authorOf(at),
      ...(proposal.note !== undefined && { note: proposal.note }),
      changes: proposed,
      approvals: [],
      createdAt: toIso(at.now),
      expiresAt: toIso(expiresAt),
      revision: 1,
    };
    const key = set.length > 0 ? await deps.crypto.keys.dataKeyFor(at.projectId, context.project?.dataKey) : undefined;
    const values = set.map(([name, value]) => ({
      name,
      ...deps.crypto.encryptValue((key as NonNullable<typeof key>).plaintext, proposalAddress(request, name), value),
    }));
    const outcome = await deps.changes.createChangeRequest({
      request,
      values,
      slots: { stored: slots, set: new Map([[id, expiresAt.getTime()]]), freed: expired },
      event: eventOf('change_request.created', at, id, {
        secrets: proposed.map((change) => ({ name: change.name, version: change.fromVersion })),
        ...(proposal.note !== undefined && { note: proposal.note }),
      }),
      accessRevision: member.accessRevision,
      ...(key?.created && { newDataKey: key.wrapped }),
    });
    if (outcome === 'written') return shown(request, environment, at.now);
    // Another proposal took the slots first: spread out, then read them again.
    await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
  }
  throw new ServiceUnavailableError();
};

/** The environment's change requests (needs `read` there), newest first, of one status when asked. */
export const listChangeRequests = async (
  deps: ChangeRequestDeps,
  at: InEnvironment,
  status: ChangeRequestStatus | undefined,
) => {
  const [{ environment }, stored] = await Promise.all([
    requireContext(deps.secrets, at, [], false, 'read', true),
    deps.changes.listChangeRequests(at.projectId, at.environment),
  ]);
  return stored
    .filter((request) => request.environmentLife === environment.life)
    .filter((request) => status === undefined || statusOf(request, at.now) === status)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    .map((request) => shown(request, environment, at.now));
};

/** One change request (needs `read` there). */
export const getChangeRequest = async (deps: ChangeRequestDeps, at: InEnvironment, id: string) => {
  const [{ environment }, request] = await Promise.all([
    requireContext(deps.secrets, at, [], false, 'read', true),
    deps.changes.getChangeRequest(at.projectId, at.environment, id),
  ]);
  return shown(found(request, environment), environment, at.now);
};

/** The values a change request proposes, `{NAME: value}` (needs `read` there): a recorded read. */
export const changeRequestValues = async (deps: ChangeRequestDeps, at: InEnvironment, id: string) => {
  const [context, stored, sealed] = await Promise.all([
    requireContext(deps.secrets, at, [], true, 'read', true),
    deps.changes.getChangeRequest(at.projectId, at.environment, id),
    deps.changes.getProposedValues(at.projectId, at.environment, id),
  ]);
  const request = found(stored, context.environment);
  if (sealed.length === 0) return {};
  const wrapped = context.project?.dataKey;
  if (wrapped === undefined) throw new Error(`Project ${at.projectId} holds a proposed value but no data key`);
  const key = (await deps.crypto.keys.dataKeyFor(at.projectId, wrapped)).plaintext;
  const opened = sealed.map((value) => [
    value.name,
    deps.crypto.decryptValue(key, proposalAddress(request, value.name), value),
  ]);
  const event = eventOf('secret.read', at, id, {
    secrets: sealed.map((value) => ({ name: value.name, version: 0 })),
  });
  await record(deps.secrets, event, at);
  return Object.fromEntries(opened) as Record<string, string>;
};

/** The caller's membership, which must manage the project (owner or admin): 403 otherwise. */
const requireManager = (member: MemberRecord) => {
  if (!canManageMembers(member.role)) throw new ForbiddenError(ErrorText.projectRole);
};

/**
 * Applies an open request's changes as one write, all or nothing, each secret at the version it was
 * proposed on, closing the request in the same transaction with `events`. A secret that moved makes
 * nothing written and the request `conflicted` (409 out of date).
 */
const apply = async (
  deps: ChangeRequestDeps,
  at: InEnvironment,
  { project, environment, request, sealed }: ApplicableRequest,
  closed: ChangeRequestRecord,
  events: (written: readonly Written[]) => AuditEvent[],
) => {
  const byName = new Map(sealed.map((value) => [value.name, value]));
  const key =
    sealed.length === 0 ? undefined : (await deps.crypto.keys.dataKeyFor(at.projectId, project?.dataKey)).plaintext;
  const planned: Change[] = request.changes.map((change) => {
    if (change.action === 'delete') return { name: change.name, expectedVersion: change.fromVersion };
    if (change.action === 'restore') {
      return { name: change.name, expectedVersion: change.fromVersion, restoredFrom: change.restoreVersion };
    }
    const value = byName.get(change.name);
    if (value === undefined || key === undefined) throw new Error(`${request.id} proposes no value for ${change.name}`);
    return {
      name: change.name,
      value: deps.crypto.decryptValue(key, proposalAddress(request, change.name), value),
      expectedVersion: change.fromVersion,
    };
  });
  try {
    await write(deps.secrets, at, planned, {
      viaChangeRequest: true,
      author: request.author,
      closing: (written) => ({ read: request, closed, events: events(written) }),
    });
  } catch (error) {
    if (!(error instanceof ConflictError) || error.message !== ErrorText.secretConflict) throw error;
    const conflicted: ChangeRequestRecord = {
      ...request,
      status: 'conflicted',
      closedBy: authorOf(at),
      closedAt: toIso(at.now),
      revision: request.revision + 1,
    };
    const outcome = await deps.changes.updateChangeRequest(
      request,
      conflicted,
      [eventOf('change_request.conflicted', at, request.id)],
      { userId: at.caller.userId, byManager: false },
    );
    if (outcome === 'requestChanged') throw new ChangeRequestMoved();
    throw new ConflictError(ErrorText.changeRequestOutOfDate);
  }
  return shown(closed, environment, at.now);
};

/** Retries a step while its request moves under it (another approval, say), reading it again each time. */
const retrying = async <T>(step: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ChangeRequestMoved)) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
    }
  }
  throw new ServiceUnavailableError();
};

/** An open request of this environment (404, 409), with what the caller is there (`read` at least). */
const requireOpen = async (deps: ChangeRequestDeps, at: InEnvironment, id: string): Promise<OpenRequest> => {
  const [context, request] = await Promise.all([
    requireContext(deps.secrets, at, [], false, 'read', true),
    deps.changes.getChangeRequest(at.projectId, at.environment, id),
  ]);
  return { ...context, request: open(found(request, context.environment), at) };
};

/**
 * An open request as `requireOpen` finds it, with the project (its data key) and the values the
 * request proposes, all read at once: what a step that may apply it needs.
 */
const requireOpenToApply = async (
  deps: ChangeRequestDeps,
  at: InEnvironment,
  id: string,
): Promise<ApplicableRequest> => {
  const [context, request, sealed] = await Promise.all([
    requireContext(deps.secrets, at, [], true, 'read', true),
    deps.changes.getChangeRequest(at.projectId, at.environment, id),
    deps.changes.getProposedValues(at.projectId, at.environment, id),
  ]);
  return { ...context, request: open(found(request, context.environment), at), sealed };
};

/** The written secrets as an event names them. */
const namedIn = (written: readonly Written[]) => ({
  secrets: written.map((secret) => ({ name: secret.name, version: secret.version })),
});

/**
 * Approves an open request (an owner or admin other than its author): when its approvals reach the
 * environment's number, it is applied at once.
 */
export const approveChangeRequest = (deps: ChangeRequestDeps, at: InEnvironment, id: string) =>
  retrying(async () => {
    const applicable = await requireOpenToApply(deps, at, id);
    const { member, environment, request } = applicable;
    requireManager(member);
    if (request.author.userId === at.caller.userId) throw new ForbiddenError(ErrorText.ownApproval);
    if (request.approvals.some((approval) => approval.userId === at.caller.userId)) {
      return shown(request, environment, at.now);
    }
    const approvals = [...request.approvals, { ...authorOf(at), at: toIso(at.now) }];
    const approved = eventOf('change_request.approved', at, id);
    if (approvals.length < (environment.approvals ?? DEFAULT_APPROVALS)) {
      const next = { ...request, approvals, revision: request.revision + 1 };
      const outcome = await deps.changes.updateChangeRequest(request, next, [approved], {
        userId: at.caller.userId,
        byManager: true,
      });
      if (outcome === 'requestChanged') throw new ChangeRequestMoved();
      if (outcome === 'refused') throw new ForbiddenError(ErrorText.projectRole);
      return shown(next, environment, at.now);
    }
    const closed: ChangeRequestRecord = {
      ...request,
      approvals,
      status: 'applied',
      closedBy: authorOf(at),
      closedAt: toIso(at.now),
      revision: request.revision + 1,
    };
    return apply(deps, at, applicable, closed, (written) => [
      approved,
      eventOf('change_request.applied', at, id, namedIn(written)),
    ]);
  });

/** Applies an open request without its approvals: the owner only, with a reason (break glass). */
export const forceChangeRequest = (deps: ChangeRequestDeps, at: InEnvironment, id: string, reason: string) =>
  retrying(async () => {
    const applicable = await requireOpenToApply(deps, at, id);
    const { member, request } = applicable;
    if (member.role !== 'owner') throw new ForbiddenError(ErrorText.projectRole);
    const closed: ChangeRequestRecord = {
      ...request,
      status: 'applied',
      closedBy: authorOf(at),
      closedAt: toIso(at.now),
      forcedReason: reason,
      revision: request.revision + 1,
    };
    return apply(deps, at, applicable, closed, (written) => [
      eventOf('change_request.forced', at, id, { note: reason }),
      eventOf('change_request.applied', at, id, namedIn(written)),
    ]);
  });

/** Closes an open request without applying it: rejected by an owner or admin, or cancelled by its author. */
export const closeChangeRequest = (
  deps: ChangeRequestDeps,
  at: InEnvironment,
  id: string,
  as: 'rejected' | 'cancelled',
) =>
  retrying(async () => {
    const { member, environment, request } = await requireOpen(deps, at, id);
    if (as === 'rejected') requireManager(member);
    else if (request.author.userId !== at.caller.userId) throw new ForbiddenError(ErrorText.notAuthor);
    const closed: ChangeRequestRecord = {
      ...request,
      status: as,
      closedBy: authorOf(at),
      closedAt: toIso(at.now),
      revision: request.revision + 1,
    };
    const type = as === 'rejected' ? 'change_request.rejected' : 'change_request.cancelled';
    const outcome = await deps.changes.updateChangeRequest(request, closed, [eventOf(type, at, id)], {
      userId: at.caller.userId,
      byManager: as === 'rejected',
    });
    if (outcome === 'requestChanged') throw new ChangeRequestMoved();
    if (outcome === 'refused') throw new ForbiddenError(ErrorText.projectRole);
    return shown(closed, environment, at.now);
  });

/**
 * Copies secrets' current values from one environment into another: written at once where `to` is
 * open; where it is protected, proposed as a change request of `to` (with the caller's note, or one
 * naming where the values come from), which waits for its approvals as any other.
 */
export const promote = (
  deps: ChangeRequestDeps,
  at: InProject,
  input: Pair & {
    readonly names: readonly string[];
    readonly expectedVersions?: Record<string, number>;
    readonly note?: string;
  },
) =>
  promoteSecrets(deps.secrets, at, input, (into, set, expectedVersions) =>
    proposeChange(deps, into, {
      set,
      ...(expectedVersions !== undefined && { expectedVersions }),
      note: input.note ?? `Promoted from ${input.from}`,
    }),
  );
