import { tokenReachesEnvironment } from '@lambdas/domain/token-limits';

const A = 'prj_AAAAAAAAAAAAAAAA';
const B = 'prj_BBBBBBBBBBBBBBBB';

describe('tokenReachesEnvironment', () => {
  it('lets a token that is not limited read everywhere', () => {
    expect(tokenReachesEnvironment(undefined, A, 'production')).toBe(true);
  });

  it('lets a limited token read every environment of a project listed without environments, and no other project', () => {
    expect(tokenReachesEnvironment([{ projectId: A }], A, 'production')).toBe(true);
    expect(tokenReachesEnvironment([{ projectId: A }], B, 'production')).toBe(false);
    expect(tokenReachesEnvironment([], A, 'production')).toBe(false);
  });

  it('holds a project listed with environments to those', () => {
    const limits = [{ projectId: A, environments: ['staging'] }];
    expect(tokenReachesEnvironment(limits, A, 'staging')).toBe(true);
    expect(tokenReachesEnvironment(limits, A, 'production')).toBe(false);
  });
});
