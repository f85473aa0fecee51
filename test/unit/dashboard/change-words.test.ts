import {
  ageText,
  type ChangeRequest,
  changeText,
  counted,
  openFirst,
  statusText,
} from '../../../dashboard/src/change-words';

const ada = { userId: 'usr_ada', email: 'ada@example.com' };
const bob = { userId: 'usr_bob', email: 'bob@example.com' };

const request = (overrides: Partial<ChangeRequest> = {}): ChangeRequest => ({
  id: 'chg_0000000000000001',
  environment: 'production',
  status: 'open',
  author: ada,
  note: null,
  changes: [{ name: 'API_KEY', action: 'set', fromVersion: 3, restoreVersion: null }],
  approvals: [],
  approvalsNeeded: 1,
  createdAt: '2026-11-21T12:00:00.000Z',
  expiresAt: '2026-12-05T12:00:00.000Z',
  closedBy: null,
  closedAt: null,
  forcedReason: null,
  ...overrides,
});

describe('changeText', () => {
  it('says a set over a version, and over none for a new name', () => {
    expect(changeText({ name: 'API_KEY', action: 'set', fromVersion: 3, restoreVersion: null })).toBe(
      'API_KEY: set, version 3 → new value',
    );
    expect(changeText({ name: 'NEW_KEY', action: 'set', fromVersion: 0, restoreVersion: null })).toBe(
      'NEW_KEY: set, none → new value',
    );
  });

  it('says a delete of the version it was proposed on', () => {
    expect(changeText({ name: 'OLD', action: 'delete', fromVersion: 2, restoreVersion: null })).toBe(
      'OLD: delete, version 2 → deleted',
    );
  });

  it('says which version a restore writes again', () => {
    expect(changeText({ name: 'API_KEY', action: 'restore', fromVersion: 4, restoreVersion: 1 })).toBe(
      'API_KEY: restore version 1, version 4 → restored',
    );
  });
});

describe('counted', () => {
  it('puts the noun in the plural but for one', () => {
    expect([0, 1, 2].map((count) => counted(count, 'approval'))).toEqual(['0 approvals', '1 approval', '2 approvals']);
  });
});

describe('statusText', () => {
  it('counts an open request’s approvals against those it needs', () => {
    expect(statusText(request({ approvalsNeeded: 2, approvals: [{ ...bob, at: '2026-11-21T12:01:00.000Z' }] }))).toBe(
      'open: 1 of 2 approvals',
    );
  });

  it('names who approved an applied request, or the owner’s reason when they applied it without approval', () => {
    expect(
      statusText(
        request({ status: 'applied', approvals: [{ ...bob, at: '2026-11-21T12:01:00.000Z' }], closedBy: bob }),
      ),
    ).toBe('applied, approved by bob@example.com');
    expect(statusText(request({ status: 'applied', closedBy: ada, forcedReason: 'The old key leaked' }))).toBe(
      'applied without approval by ada@example.com: “The old key leaked”',
    );
  });

  it('names who rejected or cancelled, and says why a request is out of date or expired', () => {
    expect(statusText(request({ status: 'rejected', closedBy: bob }))).toBe('rejected by bob@example.com');
    expect(statusText(request({ status: 'cancelled', closedBy: { userId: 'usr_cy', email: null } }))).toBe(
      'cancelled by usr_cy',
    );
    expect(statusText(request({ status: 'conflicted' }))).toBe(
      'out of date: a secret it changes moved since; nothing was written',
    );
    expect(statusText(request({ status: 'expired' }))).toBe('expired: not approved within its 14 days');
  });
});

describe('openFirst', () => {
  it('puts the open requests first and keeps each group’s order', () => {
    const listed = [
      request({ id: 'a', status: 'applied' }),
      request({ id: 'b' }),
      request({ id: 'c', status: 'rejected' }),
      request({ id: 'd' }),
    ];
    expect(openFirst(listed).map((entry) => entry.id)).toEqual(['b', 'd', 'a', 'c']);
  });
});

describe('ageText', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');

  it('says how long ago in the largest whole unit', () => {
    expect(ageText('2026-11-21T11:59:30.000Z', now)).toBe('now');
    expect(ageText('2026-11-21T11:55:00.000Z', now)).toBe('5 minutes ago');
    expect(ageText('2026-11-21T09:30:00.000Z', now)).toBe('2 hours ago');
    expect(ageText('2026-11-20T11:00:00.000Z', now)).toBe('yesterday');
    expect(ageText('2026-11-11T12:00:00.000Z', now)).toBe('10 days ago');
  });
});
