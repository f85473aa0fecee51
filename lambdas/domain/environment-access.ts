import type { AccessLevel, NeededAccess } from '@contract/roles';
import type { Scope } from '@contract/scopes';
import type { EnvironmentRecord, MemberRecord, ServiceAccountRecord } from './records';

/*
 * Who may do what in one environment: the owner and admins write everywhere, always; a plain member
 * holds the level set for them in this life of the environment, or else the environment's default
 * (`write` unless an owner or admin set less). A token acts as its owner, so it never reaches more. A
 * service account stands in its project as a plain member whose default is `none`: it holds only the
 * levels of its access.
 */

/** The approvals a change request needs in an environment that sets none. */
export const DEFAULT_APPROVALS = 1;

const RANK: Readonly<Record<AccessLevel, number>> = { none: 0, read: 1, write: 2 };

/** The default access of an environment: what a plain member holds there unless set for them. */
export const defaultAccessOf = (environment: EnvironmentRecord): AccessLevel => environment.defaultAccess ?? 'write';

/** A member's access to one environment. */
export const accessIn = (member: MemberRecord, environment: EnvironmentRecord): AccessLevel => {
  if (member.role === 'owner' || member.role === 'admin') return 'write';
  // Own properties only: an environment may be named `constructor`.
  const set =
    member.access && Object.hasOwn(member.access, environment.name) ? member.access[environment.name] : undefined;
  if (set !== undefined && set.life === environment.life) return set.level;
  return member.serviceAccount ? 'none' : defaultAccessOf(environment);
};

/**
 * A service account as the member it stands as in its project: a plain member holding its access and
 * no default, its access's revision as the member's (a write checks that the access it was allowed by
 * still holds).
 */
export const serviceAccountMember = (serviceAccount: ServiceAccountRecord): MemberRecord => ({
  projectId: serviceAccount.projectId,
  projectName: '',
  projectCreatedAt: serviceAccount.createdAt,
  userId: serviceAccount.serviceAccountId,
  role: 'member',
  addedAt: serviceAccount.createdAt,
  access: serviceAccount.access,
  serviceAccount: true,
  ...(serviceAccount.accessRevision !== undefined && { accessRevision: serviceAccount.accessRevision }),
});

/**
 * The scopes a service account's tokens hold: `read:secrets`, and `write:secrets` while it writes some
 * environment; never `admin`. Each environment's own level is held by the routes.
 */
export const serviceAccountScopes = (access: ServiceAccountRecord['access']): Scope[] =>
  Object.values(access).some((set) => set.level === 'write') ? ['read:secrets', 'write:secrets'] : ['read:secrets'];

/** Whether `level` allows what `needed` names. */
export const allows = (level: AccessLevel, needed: NeededAccess): boolean => RANK[level] >= RANK[needed];

/** Whether the environment's secrets change only through change requests. */
export const isProtected = (environment: EnvironmentRecord): boolean => environment.protected === true;
