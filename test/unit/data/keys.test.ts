import {
  emailClaimKey,
  expiryNoticeKeys,
  lifeOfSecretVersion,
  memberKey,
  membershipKey,
  noticeDayPartition,
  projectKey,
  secretHeadKey,
  secretOfHeadKey,
  secretVersionKey,
  secretVersionsPrefix,
  serviceAccountKey,
  tokenKey,
  tokenListKeys,
  tokenListPartition,
  tokenSlotsKey,
  userProfileKey,
} from '@lambdas/data/keys';

describe('keys', () => {
  it('builds each entity’s primary key from its prefix', () => {
    expect(tokenKey('AbC123')).toEqual({ PK: 'TOKEN#AbC123', SK: 'TOKEN' });
    expect(tokenSlotsKey('u1')).toEqual({ PK: 'USER#u1', SK: 'TOKEN_SLOTS' });
    expect(userProfileKey('u1')).toEqual({ PK: 'USER#u1', SK: 'PROFILE' });
    expect(emailClaimKey('a@x.io')).toEqual({ PK: 'EMAIL#a@x.io', SK: 'USER' });
    expect(projectKey('prj_1')).toEqual({ PK: 'PROJECT#prj_1', SK: 'PROJECT' });
    expect(memberKey('prj_1', 'u1')).toEqual({ PK: 'PROJECT#prj_1', SK: 'MEMBER#u1' });
  });

  it('puts members in their project’s partition, apart from the project item', () => {
    expect(memberKey('prj_1', 'u1').PK).toBe(projectKey('prj_1').PK);
    expect(memberKey('prj_1', 'u1').SK).not.toBe(projectKey('prj_1').SK);
  });

  it('puts service accounts in their project’s partition, apart from its members and environments', () => {
    expect(serviceAccountKey('prj_1', 'sa_1')).toEqual({ PK: 'PROJECT#prj_1', SK: 'SERVICE_ACCOUNT#sa_1' });
    for (const other of [projectKey('prj_1').SK, memberKey('prj_1', 'sa_1').SK, 'ENV#']) {
      expect(serviceAccountKey('prj_1', 'sa_1').SK.startsWith(other)).toBe(false);
    }
  });

  it('files a token’s next expiry notice under the day it is due, in time order within the day', () => {
    const early = expiryNoticeKeys('2026-11-23T00:30:00.000Z', 'B');
    const late = expiryNoticeKeys('2026-11-23T23:59:59.999Z', 'A');
    expect(early).toEqual({ GSI2PK: 'NOTICE#2026-11-23', GSI2SK: '2026-11-23T00:30:00.000Z#B' });
    expect(late.GSI2PK).toBe(noticeDayPartition('2026-11-23'));
    expect(early.GSI2SK < late.GSI2SK).toBe(true);
  });

  it('sorts a user’s tokens by creation time in the list index', () => {
    const older = tokenListKeys('u1', '2026-01-01T00:00:00.000Z', 'B');
    const newer = tokenListKeys('u1', '2026-02-01T00:00:00.000Z', 'A');
    expect(older.GSI1PK).toBe(tokenListPartition('u1'));
    expect(older.GSI1SK < newer.GSI1SK).toBe(true);
  });

  it('keeps a member’s copy of each membership in their own partition, beside no other item’s sort key', () => {
    expect(membershipKey('u1', 'prj_1')).toEqual({ PK: 'USER#u1', SK: 'PROJECT#prj_1' });
    expect(membershipKey('u1', 'prj_1').PK).toBe(tokenSlotsKey('u1').PK);
    expect(membershipKey('u1', 'prj_1').SK).not.toBe(tokenSlotsKey('u1').SK);
    expect(membershipKey('u1', 'prj_1').SK.startsWith(userProfileKey('u1').SK)).toBe(false);
  });

  it("reads a secret head's partition and name back from its key, and nothing from any other key", () => {
    const head = secretHeadKey('prj_1', 'development', 'DATABASE_URL');
    expect(secretOfHeadKey(head)).toEqual({ partition: head.PK, name: 'DATABASE_URL' });
    expect(secretOfHeadKey(secretVersionKey('prj_1', 'development', 'DATABASE_URL', 'life1', 1))).toBeUndefined();
    expect(secretOfHeadKey({ PK: projectKey('prj_1').PK, SK: head.SK })).toBeUndefined();
    expect(secretOfHeadKey({ PK: head.PK, SK: 'SECRET#' })).toBeUndefined();
  });

  it("reads a version's life back from its key, and keeps one name's versions apart from a longer name's", () => {
    const version = secretVersionKey('prj_1', 'development', 'API', 'life1', 12);
    expect(lifeOfSecretVersion('API', version.SK)).toBe('life1');
    expect(version.SK.startsWith(secretVersionsPrefix('API'))).toBe(true);
    const longer = secretVersionKey('prj_1', 'development', 'API_KEY', 'life1', 1);
    expect(longer.SK.startsWith(secretVersionsPrefix('API'))).toBe(false);
    expect(lifeOfSecretVersion('API', longer.SK)).toBeUndefined();
  });
});
