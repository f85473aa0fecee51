import type { AuditEvent } from '@contract/audit';
import { type RequestOrigin, requestOrigin } from '@lambdas/domain/audit';
import type { Ids } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord } from '@lambdas/domain/records';

/** The instant the use cases are called at. */
export const now = new Date('2026-11-25T12:00:00.000Z');

/** A member of project Apollo (`prj_a`, or `projectId`), added on 2026-11-01. */
export const memberRecord = (userId: string, role: MemberRecord['role'], projectId = 'prj_a'): MemberRecord => ({
  projectId,
  projectName: 'Apollo',
  projectCreatedAt: '2026-11-01T00:00:00.000Z',
  userId,
  role,
  addedAt: '2026-11-01T00:00:00.000Z',
});

/** A dashboard session of user `u-1`. */
export const session: Principal = {
  kind: 'session',
  userId: 'u-1',
  issuedAt: '2026-11-25T11:30:00.000Z',
  scopes: ['read:secrets', 'write:secrets', 'admin'],
  email: 'ada@example.com',
};

/** Where the session's requests come from. */
export const origin: RequestOrigin = requestOrigin(session, {
  sourceIp: '203.0.113.7',
  userAgent: 'jest',
  requestId: 'req-1',
});

/** Ids in sequence (`prj_1`, `tok1`, ...), so a test names what it will get. */
export const sequentialIds = (): Ids => {
  let next = 0;
  return {
    newProjectId: () => `prj_${++next}`,
    newShareId: () => `shr_${++next}`,
    mintToken: () => {
      const n = ++next;
      return { tokenId: `tok${n}`, rawToken: `sk_raw${n}`, hash: `hash${n}`, displayPrefix: `sk_raw${n}`.slice(0, 6) };
    },
  };
};

/** An event as a use case built it: its id and time are the service's, the rest as given. */
export const eventLike = (type: AuditEvent['type'], fields: Partial<AuditEvent> = {}) =>
  expect.objectContaining({ type, time: now.toISOString(), id: expect.stringMatching(/^evt_/), ...fields });
