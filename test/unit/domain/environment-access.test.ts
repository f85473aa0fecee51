import {
  accessIn,
  allows,
  defaultAccessOf,
  isProtected,
  serviceAccountMember,
} from '@lambdas/domain/environment-access';
import type { EnvironmentRecord, MemberRecord, ServiceAccountRecord } from '@lambdas/domain/records';

const environment = (fields: Partial<EnvironmentRecord> = {}): EnvironmentRecord => ({
  projectId: 'prj_a',
  name: 'production',
  createdAt: '2026-11-01T00:00:00.000Z',
  secretCount: 0,
  life: 'life-1',
  ...fields,
});
const member = (role: MemberRecord['role'], access?: MemberRecord['access']): MemberRecord => ({
  projectId: 'prj_a',
  projectName: 'Apollo',
  projectCreatedAt: '2026-11-01T00:00:00.000Z',
  userId: 'u-1',
  role,
  addedAt: '2026-11-01T00:00:00.000Z',
  ...(access && { access }),
});

describe('accessIn', () => {
  it('gives owners and admins write everywhere, whatever is set or defaulted', () => {
    const closed = environment({ defaultAccess: 'none' });
    for (const role of ['owner', 'admin'] as const) {
      expect(accessIn(member(role, { production: { level: 'none', life: 'life-1' } }), closed)).toBe('write');
    }
  });

  it('gives a plain member the level set in this life of the environment, else its default, else write', () => {
    expect(accessIn(member('member'), environment())).toBe('write');
    expect(accessIn(member('member'), environment({ defaultAccess: 'read' }))).toBe('read');
    const set = member('member', { production: { level: 'none', life: 'life-1' } });
    expect(accessIn(set, environment({ defaultAccess: 'write' }))).toBe('none');
    // Set in an earlier life of an environment of that name: lapsed.
    expect(accessIn(set, environment({ life: 'life-2', defaultAccess: 'read' }))).toBe('read');
  });

  it('reads only levels set by name, not what every object inherits', () => {
    expect(accessIn(member('member', {}), environment({ name: 'constructor', life: undefined }))).toBe('write');
  });
});

describe('serviceAccountMember', () => {
  const serviceAccount = (fields: Partial<ServiceAccountRecord> = {}): ServiceAccountRecord => ({
    projectId: 'prj_a',
    serviceAccountId: 'sa_0123456789abcdef',
    name: 'deploy',
    description: null,
    access: { staging: { level: 'write', life: 'life-1' } },
    createdAt: '2026-11-02T00:00:00.000Z',
    createdBy: { userId: 'u-1', email: 'ada@example.com' },
    ...fields,
  });

  it('stands a service account in its project as a plain member holding its access, since it was made', () => {
    expect(serviceAccountMember(serviceAccount({ accessRevision: 3 }))).toEqual({
      projectId: 'prj_a',
      projectName: '',
      projectCreatedAt: '2026-11-02T00:00:00.000Z',
      userId: 'sa_0123456789abcdef',
      role: 'member',
      addedAt: '2026-11-02T00:00:00.000Z',
      access: { staging: { level: 'write', life: 'life-1' } },
      serviceAccount: true,
      accessRevision: 3,
    });
    expect(serviceAccountMember(serviceAccount())).not.toHaveProperty('accessRevision');
  });

  it('gives it only the levels of its access: none where it has none, whatever the environment’s default', () => {
    const member = serviceAccountMember(serviceAccount());

    expect(accessIn(member, environment({ name: 'staging' }))).toBe('write');
    expect(accessIn(member, environment({ name: 'production', defaultAccess: 'write' }))).toBe('none');
    // Its access set in an earlier life of an environment of that name has lapsed.
    expect(accessIn(member, environment({ name: 'staging', life: 'life-2' }))).toBe('none');
  });
});

describe('allows, defaultAccessOf, isProtected', () => {
  it('orders none below read below write', () => {
    expect([allows('none', 'read'), allows('read', 'read'), allows('read', 'write'), allows('write', 'write')]).toEqual(
      [false, true, false, true],
    );
  });

  it('defaults to write and to open', () => {
    expect(defaultAccessOf(environment())).toBe('write');
    expect(isProtected(environment())).toBe(false);
    expect(isProtected(environment({ protected: true }))).toBe(true);
  });
});
