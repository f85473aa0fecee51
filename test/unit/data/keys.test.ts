import {
  memberKey,
  memberProjectListKeys,
  memberProjectListPartition,
  profileKey,
  projectKey,
  tokenKey,
  tokenListKeys,
  tokenListPartition,
  tokenSlotsKey,
} from '@lambdas/data/keys';

describe('keys', () => {
  it('builds each entity’s primary key from its prefix', () => {
    expect(tokenKey('AbC123')).toEqual({ PK: 'TOKEN#AbC123', SK: 'TOKEN' });
    expect(tokenSlotsKey('u1')).toEqual({ PK: 'USER#u1', SK: 'TOKEN_SLOTS' });
    expect(profileKey('a@x.io')).toEqual({ PK: 'EMAIL#a@x.io', SK: 'PROFILE' });
    expect(projectKey('prj_1')).toEqual({ PK: 'PROJECT#prj_1', SK: 'PROJECT' });
    expect(memberKey('prj_1', 'a@x.io')).toEqual({ PK: 'PROJECT#prj_1', SK: 'MEMBER#a@x.io' });
  });

  it('puts members in their project’s partition, apart from the project item', () => {
    expect(memberKey('prj_1', 'a@x.io').PK).toBe(projectKey('prj_1').PK);
    expect(memberKey('prj_1', 'a@x.io').SK).not.toBe(projectKey('prj_1').SK);
  });

  it('sorts a user’s tokens by creation time in the list index', () => {
    const older = tokenListKeys('u1', '2026-01-01T00:00:00.000Z', 'B');
    const newer = tokenListKeys('u1', '2026-02-01T00:00:00.000Z', 'A');
    expect(older.GSI1PK).toBe(tokenListPartition('u1'));
    expect(older.GSI1SK < newer.GSI1SK).toBe(true);
  });

  it('lists a member’s projects under their e-mail', () => {
    expect(memberProjectListKeys('a@x.io', 'prj_1')).toEqual({
      GSI1PK: memberProjectListPartition('a@x.io'),
      GSI1SK: 'PROJECT#prj_1',
    });
  });
});
