import type { AuditEvent } from '@contract/audit';
import { ErrorText, type ValidationDetail } from '@contract/errors';
import { BROADEST_ALLOWED_PREFIX, DEFAULT_GRACE_HOURS, DEFAULT_TTL_DAYS } from '@contract/limits';
import type { Scope } from '@contract/scopes';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '@lambdas/domain/errors';
import type { Ids } from '@lambdas/domain/ids';
import {
  creatingAddress,
  embeddedIpv4Prefix,
  type Network,
  networksOverlap,
  networkText,
  parseNetwork,
} from '@lambdas/domain/ip';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord, TokenProject, TokenRecord } from '@lambdas/domain/records';

/** What the token use cases read and write (the token repositories; in-memory fakes in unit tests). */
export interface TokenStore {
  /** A token by id, strongly consistent. */
  get(tokenId: string): Promise<TokenRecord | undefined>;
  /** The user's tokens, newest first. */
  listByUser(userId: string): Promise<TokenRecord[]>;
  /**
   * Stores a token with its event unless its owner would hold more than the limit of live tokens (409)
   * or the session was issued at or before its user's offboarding (401).
   */
  create(token: TokenRecord, now: Date, sessionIssuedAt: string, event: AuditEvent): Promise<void>;
  /**
   * Marks `old` replaced, stopping at `stopsAt`, and stores its replacement with the event, under the
   * rules of `create`; 409 when `old` was rotated meanwhile, 404 when it is gone.
   */
  replace(
    old: TokenRecord,
    replacement: TokenRecord,
    stopsAt: string,
    now: Date,
    sessionIssuedAt: string,
    event: AuditEvent,
  ): Promise<void>;
  /** Deletes one of the user's tokens with its event; 404 when it is not the user's. */
  revoke(userId: string, tokenId: string, event: AuditEvent): Promise<void>;
}

/** The memberships a limited token's projects are checked against. */
export interface MembershipReader {
  /** The user's memberships among these projects, strongly consistent (they decide access). */
  getMemberships(userId: string, projectIds: readonly string[]): Promise<readonly MemberRecord[]>;
}

/** The ports of the token use cases. */
export interface TokenPorts {
  readonly tokens: TokenStore;
  readonly members: MembershipReader;
  readonly ids: Pick<Ids, 'mintToken'>;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What the caller asked for. */
export interface NewToken {
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** Days until expiry; `null` never expires; omitted, `DEFAULT_TTL_DAYS`. */
  readonly ttlDays?: number | null;
  /** Addresses or CIDRs the token works from; omitted, the creating address. */
  readonly allowedIps?: readonly string[];
  /** The projects (and environments) it is limited to; omitted, all of the owner's. */
  readonly projects?: readonly TokenProject[];
}

/** A token's limit as answers show it: `null` for all of its owner's projects (or a project's environments). */
const shownProjects = (projects: readonly TokenProject[] | undefined) =>
  projects === undefined
    ? null
    : projects.map((entry) => ({ projectId: entry.projectId, environments: entry.environments ?? null }));

/**
 * An allow-list in canonical form (IPv4-mapped IPv6 as IPv4, IPv6 compressed, host bits cleared), or
 * a 400 with one detail per refused entry, naming it and why: not an address or CIDR, broader than
 * the service allows, or the same as or within an earlier entry of an allowed breadth.
 */
export const allowList = (entries: readonly string[]): string[] => {
  const refused = new Map<number, string>();
  const refuse = (index: number, message: string): undefined => {
    refused.set(index, message);
    return undefined;
  };
  const why = 'an allow-list names the few networks a token is used from, not a share of the Internet';
  const networks = entries.map((entry, index) => {
    const network = parseNetwork(entry);
    if (!network) return refuse(index, 'Not an IP address or CIDR');
    const broadest = BROADEST_ALLOWED_PREFIX[network.family];
    if (network.prefix < broadest) return refuse(index, `Broader than a /${broadest}: ${why}`);
    // An IPv6 range that embeds IPv4 addresses is held to the IPv4 rule too: `::/96` is `0.0.0.0/0`.
    const embedded = embeddedIpv4Prefix(network);
    if (embedded !== null && embedded < BROADEST_ALLOWED_PREFIX[4]) {
      return refuse(index, `Broader than a /${BROADEST_ALLOWED_PREFIX[4]} of the IPv4 addresses it embeds: ${why}`);
    }
    return network;
  });
  const accepted: Network[] = [];
  for (const [index, network] of networks.entries()) {
    if (!network) continue;
    const earlier = networks.findIndex((other, at) => at < index && other && networksOverlap(other, network));
    const other = networks[earlier];
    if (!other) accepted.push(network);
    else if (networkText(other) === networkText(network)) refuse(index, `The same as allowedIps.${earlier}`);
    else refuse(index, `Overlaps allowedIps.${earlier}`);
  }
  if (refused.size > 0) {
    const details: ValidationDetail[] = [...refused]
      .sort(([a], [b]) => a - b)
      .map(([index, message]) => ({ path: `allowedIps.${index}`, message }));
    throw new BadRequestError(ErrorText.validation, details);
  }
  return accepted.map(networkText);
};

/** What a new token is, as its owner chose it (or as the token it replaces was). */
export type TokenSettings = Pick<TokenRecord, 'name' | 'scopes' | 'boundIp' | 'expiresAt' | 'allowedIps' | 'projects'>;

/** A new token of `owner`'s: its record, with only the hash of its secret, and the raw token to show once. */
export const mintFor = (
  ids: TokenPorts['ids'],
  owner: Pick<Principal, 'userId' | 'email'>,
  settings: TokenSettings,
  now: Date,
) => {
  const minted = ids.mintToken();
  const record: TokenRecord = {
    tokenId: minted.tokenId,
    userId: owner.userId,
    name: settings.name,
    scopes: settings.scopes,
    secretHash: minted.hash,
    boundIp: settings.boundIp,
    displayPrefix: minted.displayPrefix,
    createdAt: toIso(now),
    expiresAt: settings.expiresAt,
    lastUsedAt: null,
    ...(settings.allowedIps && { allowedIps: settings.allowedIps }),
    ...(settings.projects && { projects: settings.projects }),
    ...(owner.email && { ownerEmail: owner.email }),
  };
  return {
    record,
    shown: {
      id: record.tokenId,
      name: record.name,
      rawToken: minted.rawToken,
      displayPrefix: record.displayPrefix,
      scopes: record.scopes,
      expiresAt: record.expiresAt,
      projects: shownProjects(record.projects),
    },
  };
};

/**
 * When a rotated token stops (after `graceHours`, or at its own expiry if sooner) and when its
 * replacement expires (as long from now as the old one lived; never, like it).
 */
export const rotationOf = (old: TokenRecord, graceHours: number | undefined, now: Date) => {
  const graceEnd = now.getTime() + (graceHours ?? DEFAULT_GRACE_HOURS) * HOUR_MS;
  const stopsAt = toIso(new Date(old.expiresAt === null ? graceEnd : Math.min(graceEnd, Date.parse(old.expiresAt))));
  const lifetime = old.expiresAt === null ? null : Date.parse(old.expiresAt) - Date.parse(old.createdAt);
  return { stopsAt, expiresAt: lifetime === null ? null : toIso(new Date(now.getTime() + lifetime)) };
};

/** The token use cases over their ports. */
export const tokenUseCases = ({ tokens, members, ids }: TokenPorts) => ({
  /**
   * Mints a token bound to the caller's source IP and stores only its hash; the caller is a session,
   * and a member of every project the token is limited to (else 404, as for any project not theirs).
   */
  createToken: async (owner: Principal, request: NewToken, origin: RequestOrigin, now: Date) => {
    const boundIp = creatingAddress(origin.sourceIp);
    if (!boundIp || owner.issuedAt === undefined) throw new UnauthorizedError();
    const allowedIps = request.allowedIps && allowList(request.allowedIps);
    const projects = request.projects?.map((entry) =>
      entry.environments === undefined
        ? { projectId: entry.projectId }
        : { projectId: entry.projectId, environments: entry.environments },
    );
    if (projects) {
      const projectIds = projects.map((entry) => entry.projectId);
      const memberOf = new Set((await members.getMemberships(owner.userId, projectIds)).map((m) => m.projectId));
      if (projectIds.some((projectId) => !memberOf.has(projectId))) throw new NotFoundError(ErrorText.projectNotFound);
    }
    const ttlDays = request.ttlDays === undefined ? DEFAULT_TTL_DAYS : request.ttlDays;
    const expiresAt = ttlDays === null ? null : toIso(new Date(now.getTime() + ttlDays * DAY_MS));
    const { record, shown } = mintFor(
      ids,
      owner,
      { name: request.name, scopes: request.scopes, boundIp, expiresAt, allowedIps, projects },
      now,
    );
    const event = auditEvent(
      'token.created',
      origin,
      now,
      { tokenId: record.tokenId },
      { name: record.name, scopes: record.scopes, expiresAt: record.expiresAt },
    );
    await tokens.create(record, now, owner.issuedAt, event);
    return shown;
  },

  /** The caller's tokens as the list shows them: no secret, hash or bound IP. */
  listTokens: async (owner: Principal) =>
    (await tokens.listByUser(owner.userId)).map((token) => ({
      id: token.tokenId,
      name: token.name,
      displayPrefix: token.displayPrefix,
      scopes: token.scopes,
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
      lastUsedAt: token.lastUsedAt,
      lastUsedIp: token.lastUsedIp ?? null,
      allowedIps: token.allowedIps ?? null,
      replacedBy: token.replacedBy ?? null,
      stopsAt: token.stopsAt ?? null,
      projects: shownProjects(token.projects),
    })),

  /** Revokes one of the caller's tokens (its id's form is checked by the route contract). */
  revokeToken: (owner: Principal, tokenId: string, origin: RequestOrigin, now: Date): Promise<void> =>
    tokens.revoke(owner.userId, tokenId, auditEvent('token.revoked', origin, now, { tokenId })),

  /**
   * Replaces one of the caller's tokens with a new one of the same name, scopes, addresses and projects, living as
   * long from now as the old one lived (or forever, like it). The old one works on for `graceHours`, or
   * until its own expiry if sooner, then fails like a revoked token; the caller is a session.
   */
  rotateToken: async (
    owner: Principal,
    tokenId: string,
    request: { readonly graceHours?: number } | undefined,
    origin: RequestOrigin,
    now: Date,
  ) => {
    if (owner.issuedAt === undefined) throw new UnauthorizedError();
    const old = await tokens.get(tokenId);
    if (old?.userId !== owner.userId) throw new NotFoundError(ErrorText.tokenNotFound);
    if (old.replacedBy !== undefined) throw new ConflictError(ErrorText.tokenRotated);
    const { stopsAt, expiresAt } = rotationOf(old, request?.graceHours, now);
    const { record: replacement, shown } = mintFor(ids, owner, { ...old, expiresAt }, now);
    const event = auditEvent(
      'token.rotated',
      origin,
      now,
      { tokenId: old.tokenId },
      {
        name: old.name,
        scopes: old.scopes,
        expiresAt: replacement.expiresAt,
        replacedBy: replacement.tokenId,
        stopsAt,
      },
    );
    await tokens.replace(old, replacement, stopsAt, now, owner.issuedAt, event);
    return { ...shown, allowedIps: replacement.allowedIps ?? null, replaces: { id: old.tokenId, stopsAt } };
  },
});
