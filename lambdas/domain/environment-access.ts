import type { AccessLevel, NeededAccess } from '@contract/roles';
import type { EnvironmentRecord, MemberRecord } from './records';

/*
 * Who may do what in one environment: the owner and admins write everywhere, always; a plain member
 * holds the level set for them in this life of the environment, or else the environment's default
 * (`write` unless an owner or admin set less). A token acts as its owner, so it never reaches more.
 */

/** The approvals a change request needs in an environment that sets none. */
export const DEFAULT_APPROVALS = 1;

const RANK: Readonly<Record<AccessLevel, number>> = { none: 0, read: 1, write: 2 };

/** The default access of an environment: what a plain member holds there unless set for them. */
export const defaultAccessOf = (environment: EnvironmentRecord): AccessLevel => environment.defaultAccess ?? 'write';

/** A member's access to one environment. */
export const accessIn = (member: MemberRecord, environment: EnvironmentRecord): AccessLevel => {
  if (member.role !== 'member') return 'write';
  // Own properties only: an environment may be named `constructor`.
  const set =
    member.access && Object.hasOwn(member.access, environment.name) ? member.access[environment.name] : undefined;
  return set !== undefined && set.life === environment.life ? set.level : defaultAccessOf(environment);
};

/** Whether `level` allows what `needed` names. */
export const allows = (level: AccessLevel, needed: NeededAccess): boolean => RANK[level] >= RANK[needed];

/** Whether the environment's secrets change only through change requests. */
export const isProtected = (environment: EnvironmentRecord): boolean => environment.protected === true;
