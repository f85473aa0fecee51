import { hasScope } from '@contract/scopes';
import { canManageMembers, compareMembers } from '@lambdas/domain/roles';

describe('hasScope', () => {
  it('grants every scope to admin', () => {
    expect(hasScope(['admin'], 'read:secrets')).toBe(true);
    expect(hasScope(['admin'], 'write:secrets')).toBe(true);
    expect(hasScope(['admin'], 'admin')).toBe(true);
  });

  it('does not let write:secrets imply read:secrets, nor either imply admin', () => {
    expect(hasScope(['write:secrets'], 'read:secrets')).toBe(false);
    expect(hasScope(['read:secrets'], 'write:secrets')).toBe(false);
    expect(hasScope(['read:secrets', 'write:secrets'], 'admin')).toBe(false);
    expect(hasScope([], 'read:secrets')).toBe(false);
  });
});

describe('project roles', () => {
  it('lets owners and admins manage members, not members', () => {
    expect(canManageMembers('owner')).toBe(true);
    expect(canManageMembers('admin')).toBe(true);
    expect(canManageMembers('member')).toBe(false);
  });

  it('orders the owner first, then by e-mail', () => {
    const list = [
      { role: 'member' as const, email: 'b@x.io' },
      { role: 'owner' as const, email: 'z@x.io' },
      { role: 'admin' as const, email: 'a@x.io' },
    ];
    expect([...list].sort(compareMembers).map((m) => m.email)).toEqual(['z@x.io', 'a@x.io', 'b@x.io']);
  });
});
