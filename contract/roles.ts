/** Roles a project member can hold; `owner` is given only to a project's creator. */
export type ProjectRole = 'owner' | 'admin' | 'member';

/** Every role, as the member and project lists show them. */
export const projectRoles = ['owner', 'admin', 'member'] as const satisfies readonly ProjectRole[];

/** Roles that may be granted through the add-member route. */
export const grantableRoles = ['member', 'admin'] as const satisfies readonly ProjectRole[];

/** A role that may be granted through the add-member route. */
export type GrantableRole = (typeof grantableRoles)[number];

/**
 * What a member may do in one environment: nothing, read its secrets, or read and write them. Owners
 * and admins hold `write` in every environment, always.
 */
export const accessLevels = ['none', 'read', 'write'] as const;

/** One environment access level. */
export type AccessLevel = (typeof accessLevels)[number];

/** What a route under an environment needs of its caller there. */
export type NeededAccess = Exclude<AccessLevel, 'none'>;

/** The levels a service account may hold in an environment: `none` is an environment left out of its access. */
export const SERVICE_ACCOUNT_LEVELS = ['read', 'write'] as const satisfies readonly NeededAccess[];

/** One level a service account holds in an environment. */
export type ServiceAccountLevel = (typeof SERVICE_ACCOUNT_LEVELS)[number];
