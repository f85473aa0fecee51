import { DEFAULT_AUDIT_PAGE } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { MemberRecord, TrailQuery } from '@lambdas/domain/records';
import { type AuditStore, auditUseCases, type TrailRequest } from '@lambdas/use-cases/audit';
import { session } from './fakes';

/** Trails that answer an empty page and keep the queries they were asked. */
const fakeTrails = (role?: MemberRecord['role']) => {
  const asked: { trail: string; query: TrailQuery }[] = [];
  const audit: AuditStore = {
    listUserAuditEvents: async (userId, query) => {
      asked.push({ trail: `user ${userId}`, query });
      return { events: [], nextCursor: null };
    },
    listProjectAuditEvents: async (projectId, query) => {
      asked.push({ trail: `project ${projectId}`, query });
      return { events: [], nextCursor: null };
    },
  };
  const member: MemberRecord | undefined = role && {
    projectId: 'prj_a',
    projectName: 'Apollo',
    projectCreatedAt: '2026-11-01T00:00:00.000Z',
    userId: session.userId,
    role,
    addedAt: '2026-11-01T00:00:00.000Z',
  };
  const members = { getMember: async () => member };
  return { ...auditUseCases({ audit, members }), asked };
};

describe('readUserTrail', () => {
  it('reads the caller’s trail, a default page when no limit is given', async () => {
    const { readUserTrail, asked } = fakeTrails();
    await readUserTrail(session, {});
    expect(asked).toEqual([{ trail: 'user u-1', query: expect.objectContaining({ limit: DEFAULT_AUDIT_PAGE }) }]);
  });

  it('passes the limit as a number, the cursor and type as given, and the bounds as the keys hold time', async () => {
    const { readUserTrail, asked } = fakeTrails();
    const request: TrailRequest = {
      limit: '5',
      cursor: 'next',
      type: 'token.created',
      since: '2026-11-01T00:00:00Z',
      until: '2026-11-02T00:00:00Z',
    };
    await readUserTrail(session, request);
    expect(asked[0]?.query).toEqual({
      limit: 5,
      cursor: 'next',
      type: 'token.created',
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-11-02T00:00:00.000Z',
    });
  });

  it('answers 400 for a day that does not exist, and for since after until, reading nothing', async () => {
    const { readUserTrail, asked } = fakeTrails();
    await expect(readUserTrail(session, { since: '2026-02-31T00:00:00Z' })).rejects.toMatchObject({
      status: 400,
      message: ErrorText.validation,
      details: [{ path: 'since', message: 'Not a date and time' }],
    });
    await expect(
      readUserTrail(session, { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' }),
    ).rejects.toMatchObject({ status: 400, details: [{ path: 'since', message: 'Must not be after until' }] });
    expect(asked).toEqual([]);
  });
});

describe('readProjectTrail', () => {
  it.each(['owner', 'admin'] as const)('reads the project’s trail for its %s', async (role) => {
    const { readProjectTrail, asked } = fakeTrails(role);
    await readProjectTrail(session, 'prj_a', {});
    expect(asked.map((query) => query.trail)).toEqual(['project prj_a']);
  });

  it('answers 403 to a plain member and 404 to anyone else, reading nothing', async () => {
    const member = fakeTrails('member');
    await expect(member.readProjectTrail(session, 'prj_a', {})).rejects.toMatchObject({
      status: 403,
      message: ErrorText.projectRole,
    });
    const stranger = fakeTrails();
    await expect(stranger.readProjectTrail(session, 'prj_a', {})).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
    expect([...member.asked, ...stranger.asked]).toEqual([]);
  });
});
