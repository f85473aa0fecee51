import { PROJECT_ID_PATTERN, SERVICE_ACCOUNT_ID_PATTERN, SHARE_ID_PATTERN, TOKEN_PATTERN } from '@contract/identifiers';
import { newLife, newProjectId, newServiceAccountId, newShareId, randomIds } from '@lambdas/domain/ids';

describe('new ids', () => {
  it.each([
    ['a project', newProjectId, PROJECT_ID_PATTERN],
    ['a share', newShareId, SHARE_ID_PATTERN],
    ['a service account', newServiceAccountId, SERVICE_ACCOUNT_ID_PATTERN],
    ['a life', newLife, /^[0-9A-Za-z]{12}$/],
  ])('gives %s an id of its documented form, never the same twice', (_what, draw, pattern) => {
    const drawn = Array.from({ length: 50 }, draw);
    for (const id of drawn) expect(id).toMatch(pattern);
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it('are what the service draws its project ids, share ids and tokens from', () => {
    expect(randomIds.newProjectId()).toMatch(PROJECT_ID_PATTERN);
    expect(randomIds.newShareId()).toMatch(SHARE_ID_PATTERN);
    expect(randomIds.mintToken().rawToken).toMatch(TOKEN_PATTERN);
  });
});
