import {
  type AuditActor,
  type AuditDetails,
  type AuditEvent,
  type AuditEventType,
  type AuditTarget,
  auditEventSchema,
  MAX_USER_AGENT_LENGTH,
} from '@contract/audit';
import { toIso } from './clock';
import type { Principal } from './principal';
import { randomBase62 } from './token-format';

/** Where a request came from, as API Gateway saw it: what an audit event records of its caller. */
export interface RequestOrigin {
  readonly actor: AuditActor;
  readonly sourceIp: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
}

/** The actor a principal is: a user's session or token, or a service account's token. */
export const actorOf = (principal: Principal): AuditActor =>
  principal.kind === 'serviceAccount'
    ? serviceAccountActor(
        principal.userId,
        principal.name ?? null,
        principal.tokenId ?? null,
        principal.subject ?? null,
      )
    : userActor(principal.userId, principal.email ?? null, principal.kind, principal.tokenId ?? null);

/** A person as an actor, through a session or one of their tokens. */
export const userActor = (
  userId: string,
  email: string | null,
  via: 'session' | 'token',
  tokenId: string | null,
): AuditActor => ({ type: 'user', id: userId, name: null, userId, email, via, tokenId, subject: null });

/** A service account as an actor, with the token it used and whom it proved to be when it signed in for it. */
export const serviceAccountActor = (
  serviceAccountId: string,
  name: string | null,
  tokenId: string | null,
  subject: string | null,
): AuditActor => ({
  type: 'serviceAccount',
  id: serviceAccountId,
  name,
  userId: null,
  email: null,
  via: 'token',
  tokenId,
  subject,
});

/** What API Gateway tells of a request. */
export interface RequestFacts {
  readonly sourceIp?: string | null;
  readonly userAgent?: string | null;
  readonly requestId?: string | null;
}

/** The origin of a request by `actor`; the user agent is cut to what an event keeps. */
export const originOf = (actor: AuditActor, request: RequestFacts): RequestOrigin => ({
  actor,
  sourceIp: request.sourceIp || null,
  userAgent: request.userAgent ? request.userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
  requestId: request.requestId || null,
});

/** The origin of a request made by `principal`. */
export const requestOrigin = (principal: Principal, request: RequestFacts): RequestOrigin =>
  originOf(actorOf(principal), request);

/** The origin of what the service does on its own (offboarding): no user, address or request. */
export const systemOrigin: RequestOrigin = {
  actor: {
    type: 'system',
    id: null,
    name: null,
    userId: null,
    email: null,
    via: 'system',
    tokenId: null,
    subject: null,
  },
  sourceIp: null,
  userAgent: null,
  requestId: null,
};

/** Every field of one part of an event, null: what an event leaves out of that part. */
const nulls = <T>(part: 'target' | 'details'): T =>
  Object.fromEntries(Object.keys(auditEventSchema().shape[part].shape).map((field) => [field, null])) as T;

/**
 * The null defaults, taken from the schema with the first event: building the schema at load would
 * lengthen the cold start of every function, most of which write no event on most requests.
 */
let defaults: { readonly target: AuditTarget; readonly details: AuditDetails } | undefined;
const nullDefaults = () => {
  defaults ??= { target: nulls<AuditTarget>('target'), details: nulls<AuditDetails>('details') };
  return defaults;
};

/** One audit event of `type` by `origin`'s caller; the fields not given are null. */
export const auditEvent = (
  type: AuditEventType,
  origin: RequestOrigin,
  now: Date,
  target: Partial<AuditTarget> = {},
  details: Partial<AuditDetails> = {},
): AuditEvent => {
  const { target: noTarget, details: noDetails } = nullDefaults();
  return {
    id: `evt_${randomBase62(20)}`,
    time: toIso(now),
    type,
    actor: origin.actor,
    target: Object.assign({}, noTarget, target),
    sourceIp: origin.sourceIp,
    userAgent: origin.userAgent,
    requestId: origin.requestId,
    details: Object.assign({}, noDetails, details),
  };
};
