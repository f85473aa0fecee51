import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { serviceAccountScopes } from '@lambdas/domain/environment-access';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@lambdas/domain/errors';
import type { Ids } from '@lambdas/domain/ids';
import { creatingAddress } from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord, ServiceAccountRecord, TokenPlace, TokenRecord } from '@lambdas/domain/records';
import { canManageMembers } from '@lambdas/domain/roles';
import { allowList, mintFor, rotationOf } from './tokens';

/** What the use cases of a service account's tokens read and write (the repositories). */
export interface ServiceAccountTokenStore {
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccountRecord | undefined>;
  /** A token by id, strongly consistent. */
  getToken(tokenId: string): Promise<TokenRecord | undefined>;
  /** The service account's listed tokens, newest first. */
  listTokens(serviceAccountId: string): Promise<TokenRecord[]>;
  /**
   * Stores a token with its event while the service account exists and the manager manages its
   * project (404 else), under its limit of live tokens (409).
   */
  createToken(token: TokenRecord, now: Date, sessionIssuedAt: string, event: AuditEvent, at: TokenPlace): Promise<void>;
  /** Marks `old` replaced and stores its replacement, under the rules of `createToken`; 409 rotated already, 404 gone. */
  replaceToken(
    old: TokenRecord,
    replacement: TokenRecord,
    stopsAt: string,
    now: Date,
    sessionIssuedAt: string,
    event: AuditEvent,
    at: TokenPlace,
  ): Promise<void>;
  /** Deletes one of the service account's tokens with its event; 404 when it is not one of them. */
  revokeToken(serviceAccountId: string, tokenId: string, event: AuditEvent, at: TokenPlace): Promise<void>;
}

/** The ports of the use cases of a service account's tokens. */
export interface ServiceAccountTokenPorts {
  readonly store: ServiceAccountTokenStore;
  readonly ids: Pick<Ids, 'mintToken'>;
}

/** What a manager asks of a new token of a service account's. */
export interface NewServiceAccountToken {
  readonly name: string;
  readonly ttlDays: number;
  readonly allowedIps?: readonly string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A service account's token as its list shows it: no secret, hash or bound address. */
const listed = (token: TokenRecord) => ({
  id: token.tokenId,
  name: token.name,
  displayPrefix: token.displayPrefix,
  createdAt: token.createdAt,
  // Every token of a service account's expires (ttlDays is required).
  expiresAt: token.expiresAt as string,
  lastUsedAt: token.lastUsedAt,
  lastUsedIp: token.lastUsedIp ?? null,
  allowedIps: token.allowedIps ?? null,
  replacedBy: token.replacedBy ?? null,
  stopsAt: token.stopsAt ?? null,
});

/**
 * The static tokens of a service account: made, rotated and revoked by its project's owner or admins,
 * each living 1 to 365 days, at most ten live at once. A token's scopes follow from the service
 * account's access when it is used (the authorizer's rule); the ones answered are today's.
 */
export const serviceAccountTokenUseCases = ({ store, ids }: ServiceAccountTokenPorts) => {
  /** The service account, once the caller is found to manage its project (404 for a non-member or none such). */
  const managedServiceAccount = async (caller: Principal, projectId: string, serviceAccountId: string) => {
    const [membership, serviceAccount] = await Promise.all([
      store.getMember(projectId, caller.userId),
      store.getServiceAccount(projectId, serviceAccountId),
    ]);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    if (!serviceAccount) throw new NotFoundError(ErrorText.serviceAccountNotFound);
    return serviceAccount;
  };

  /** The service account's token of that id (404 for another's, a short-lived one, or none). */
  const ownToken = async (serviceAccount: ServiceAccountRecord, tokenId: string): Promise<TokenRecord> => {
    const token = await store.getToken(tokenId);
    const own =
      token?.userId === serviceAccount.serviceAccountId &&
      token.serviceAccountProject === serviceAccount.projectId &&
      token.subject === undefined;
    if (!own) throw new NotFoundError(ErrorText.tokenNotFound);
    return token;
  };

  /** The token's event in the project's trail, naming the service account and the token. */
  const tokenEvent = (
    type: 'service_account.token.created' | 'service_account.token.revoked' | 'service_account.token.rotated',
    serviceAccount: ServiceAccountRecord,
    token: Pick<TokenRecord, 'tokenId' | 'name' | 'expiresAt'>,
    origin: RequestOrigin,
    now: Date,
    details: Partial<AuditEvent['details']> = {},
  ) =>
    auditEvent(
      type,
      origin,
      now,
      {
        projectId: serviceAccount.projectId,
        serviceAccountId: serviceAccount.serviceAccountId,
        tokenId: token.tokenId,
      },
      { name: token.name, expiresAt: token.expiresAt, ...details },
    );

  /** A new token as the answer shows it once: with its raw secret. */
  const shownOnce = (minted: ReturnType<typeof mintFor>, serviceAccount: ServiceAccountRecord) => ({
    id: minted.record.tokenId,
    name: minted.record.name,
    rawToken: minted.shown.rawToken,
    displayPrefix: minted.record.displayPrefix,
    scopes: serviceAccountScopes(serviceAccount.access),
    expiresAt: minted.record.expiresAt as string,
    allowedIps: minted.record.allowedIps ?? null,
  });

  return {
    /** Mints a token of the service account's, bound to the creating address unless `allowedIps` names others. */
    createToken: async (
      caller: Principal,
      projectId: string,
      serviceAccountId: string,
      request: NewServiceAccountToken,
      origin: RequestOrigin,
      now: Date,
    ) => {
      const boundIp = creatingAddress(origin.sourceIp);
      if (!boundIp || caller.issuedAt === undefined) throw new UnauthorizedError();
      const allowedIps = request.allowedIps && allowList(request.allowedIps);
      const serviceAccount = await managedServiceAccount(caller, projectId, serviceAccountId);
      const expiresAt = toIso(new Date(now.getTime() + request.ttlDays * DAY_MS));
      const minted = mintFor(
        ids,
        { userId: serviceAccountId },
        { name: request.name, scopes: [], boundIp, expiresAt, allowedIps },
        now,
      );
      const record: TokenRecord = { ...minted.record, serviceAccountProject: projectId };
      const event = tokenEvent('service_account.token.created', serviceAccount, record, origin, now);
      await store.createToken(record, now, caller.issuedAt, event, { projectId, managerUserId: caller.userId });
      return shownOnce({ ...minted, record }, serviceAccount);
    },

    /** The service account's static tokens, newest first: no secret, hash or bound address. */
    listTokens: async (caller: Principal, projectId: string, serviceAccountId: string) => {
      const [serviceAccount, tokens] = await Promise.all([
        managedServiceAccount(caller, projectId, serviceAccountId),
        store.listTokens(serviceAccountId),
      ]);
      return tokens.filter((token) => token.serviceAccountProject === serviceAccount.projectId).map(listed);
    },

    /** Revokes one of the service account's tokens: it stops at once. */
    revokeToken: async (
      caller: Principal,
      projectId: string,
      serviceAccountId: string,
      tokenId: string,
      origin: RequestOrigin,
      now: Date,
    ): Promise<void> => {
      const serviceAccount = await managedServiceAccount(caller, projectId, serviceAccountId);
      const token = await ownToken(serviceAccount, tokenId);
      const event = tokenEvent('service_account.token.revoked', serviceAccount, token, origin, now);
      await store.revokeToken(serviceAccountId, tokenId, event, { projectId, managerUserId: caller.userId });
    },

    /**
     * Replaces one of the service account's tokens with a new one of the same name and addresses, living
     * as long from now; the old one works on for `graceHours` (or to its own expiry if sooner).
     */
    rotateToken: async (
      caller: Principal,
      projectId: string,
      serviceAccountId: string,
      tokenId: string,
      request: { readonly graceHours?: number } | undefined,
      origin: RequestOrigin,
      now: Date,
    ) => {
      if (caller.issuedAt === undefined) throw new UnauthorizedError();
      const serviceAccount = await managedServiceAccount(caller, projectId, serviceAccountId);
      const old = await ownToken(serviceAccount, tokenId);
      if (old.replacedBy !== undefined) throw new ConflictError(ErrorText.tokenRotated);
      const { stopsAt, expiresAt } = rotationOf(old, request?.graceHours, now);
      const minted = mintFor(ids, { userId: serviceAccountId }, { ...old, expiresAt }, now);
      const replacement: TokenRecord = { ...minted.record, serviceAccountProject: projectId };
      const event = tokenEvent('service_account.token.rotated', serviceAccount, old, origin, now, {
        expiresAt: replacement.expiresAt,
        replacedBy: replacement.tokenId,
        stopsAt,
      });
      await store.replaceToken(old, replacement, stopsAt, now, caller.issuedAt, event, {
        projectId,
        managerUserId: caller.userId,
      });
      return {
        ...shownOnce({ ...minted, record: replacement }, serviceAccount),
        replaces: { id: old.tokenId, stopsAt },
      };
    },
  };
};
