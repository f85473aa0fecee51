import type { ProjectRole } from '@contract/roles';

/** Whether a member with this role may add and remove members. */
export const canManageMembers = (role: ProjectRole): boolean => role === 'owner' || role === 'admin';

/** Whether a member with this role may add and delete environments. */
export const canManageEnvironments = (role: ProjectRole): boolean => role === 'owner' || role === 'admin';

/** Member list order: the owner first, then by e-mail. */
export const compareMembers = (
  a: { role: ProjectRole; email: string },
  b: { role: ProjectRole; email: string },
): number => {
  if (a.role === 'owner' && b.role !== 'owner') return -1;
  if (b.role === 'owner' && a.role !== 'owner') return 1;
  return a.email < b.email ? -1 : a.email > b.email ? 1 : 0;
};
