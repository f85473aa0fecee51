import { hasScope, scopes } from '@contract/scopes';
import { canManageEnvironments, canManageMembers, compareMembers } from '@lambdas/domain/roles';

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

  it('grants a scope held by name', () => {
    expect(hasScope(['read:secrets'], 'read:secrets')).toBe(true);
    expect(hasScope(['write:secrets'], 'write:secrets')).toBe(true);
  });

  it('knows exactly the three scopes', () => {
    expect(scopes).toEqual(['read:secrets', 'write:secrets', 'admin']);
  });
});

describe('project roles', () => {
  it('lets owners and admins manage members, not members', () => {
    expect(canManageMembers('owner')).toBe(true);
    expect(canManageMembers('admin')).toBe(true);
    expect(canManageMembers('member')).toBe(false);
  });

  it('lets owners and admins manage environments, not plain members', () => {
    expect(canManageEnvironments('owner')).toBe(true);
    expect(canManageEnvironments('admin')).toBe(true);
    expect(canManageEnvironments('member')).toBe(false);
  });

  it('puts the owner before anyone, whatever the e-mails', () => {
    const owner = { role: 'owner' as const, email: 'z@x.io' };
    for (const role of ['admin', 'member'] as const) {
      const other = { role, email: 'a@x.io' };
      expect(compareMembers(owner, other)).toBeLessThan(0);
      expect(compareMembers(other, owner)).toBeGreaterThan(0);
    }
  });

  it('orders everyone else by e-mail only, whatever the role', () => {
    const admin = { role: 'admin' as const, email: 'b@x.io' };
    const member = { role: 'member' as const, email: 'a@x.io' };
    expect(compareMembers(admin, member)).toBeGreaterThan(0);
    expect(compareMembers(member, admin)).toBeLessThan(0);
    expect(compareMembers(admin, { ...admin })).toBe(0);
    expect(compareMembers({ role: 'owner', email: 'a@x.io' }, { role: 'owner', email: 'b@x.io' })).toBeLessThan(0);
    expect(compareMembers({ role: 'owner', email: 'b@x.io' }, { role: 'owner', email: 'a@x.io' })).toBeGreaterThan(0);
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
