import {
  callerRoleArn,
  isRulePrincipalArn,
  matchingPrincipal,
  parseAwsArn,
  principalMatches,
} from '@lambdas/domain/aws-principals';
import fc from 'fast-check';

const ACCOUNT = '123456789012';
const session = (role: string, name = 'build-42', account = ACCOUNT) =>
  `arn:aws:sts::${account}:assumed-role/${role}/${name}`;

describe('parseAwsArn', () => {
  it('reads roles and users, with and without a path', () => {
    expect(parseAwsArn(`arn:aws:iam::${ACCOUNT}:role/ci`)).toEqual({
      kind: 'role',
      partition: 'aws',
      account: ACCOUNT,
      path: '/',
      name: 'ci',
    });
    expect(parseAwsArn(`arn:aws:iam::${ACCOUNT}:role/team/deploy/ci`)).toMatchObject({
      kind: 'role',
      path: '/team/deploy/',
      name: 'ci',
    });
    expect(parseAwsArn(`arn:aws-cn:iam::${ACCOUNT}:user/ops/alice`)).toMatchObject({
      kind: 'user',
      partition: 'aws-cn',
      path: '/ops/',
      name: 'alice',
    });
  });

  it('reads what STS answers: role sessions, the root user, federated users', () => {
    expect(parseAwsArn(session('ci'))).toEqual({
      kind: 'assumed-role',
      partition: 'aws',
      account: ACCOUNT,
      name: 'ci',
      session: 'build-42',
    });
    expect(parseAwsArn(`arn:aws-us-gov:iam::${ACCOUNT}:root`)).toMatchObject({ kind: 'root', partition: 'aws-us-gov' });
    expect(parseAwsArn(`arn:aws:sts::${ACCOUNT}:federated-user/bob`)).toMatchObject({
      kind: 'federated-user',
      name: 'bob',
    });
  });

  it.each([
    ['another service', `arn:aws:s3:::bucket/role/ci`],
    ['a short account', 'arn:aws:iam::12345678901:role/ci'],
    ['an unknown partition', `arn:aws-xx:iam::${ACCOUNT}:role/ci`],
    ['a region', `arn:aws:iam:us-east-1:${ACCOUNT}:role/ci`],
    ['an empty path segment', `arn:aws:iam::${ACCOUNT}:role//ci`],
    ['an empty segment inside the path', `arn:aws:iam::${ACCOUNT}:role/team//ci`],
    ['a path that starts with an empty segment', `arn:aws:iam::${ACCOUNT}:role///ci`],
    ['text before the ARN', `xarn:aws:iam::${ACCOUNT}:role/ci`],
    ['an empty name', `arn:aws:iam::${ACCOUNT}:role/ci/`],
    ['a name with a space', `arn:aws:iam::${ACCOUNT}:role/c i`],
    ['a name over 64 characters', `arn:aws:iam::${ACCOUNT}:role/${'a'.repeat(65)}`],
    ['a session without its name', `arn:aws:sts::${ACCOUNT}:assumed-role/ci`],
    ['an STS role', `arn:aws:sts::${ACCOUNT}:role/ci`],
    ['a group', `arn:aws:iam::${ACCOUNT}:group/admins`],
    ['an ARN over 2048 characters', `arn:aws:iam::${ACCOUNT}:role/${'p/'.repeat(1100)}ci`],
    ['a line break', `arn:aws:iam::${ACCOUNT}:role/ci\n`],
  ])('reads no principal in %s', (_what, arn) => {
    expect(parseAwsArn(arn)).toBeUndefined();
  });

  it('admits roles and users in rules, nothing else', () => {
    expect(isRulePrincipalArn(`arn:aws:iam::${ACCOUNT}:role/path/ci`)).toBe(true);
    expect(isRulePrincipalArn(`arn:aws:iam::${ACCOUNT}:user/alice`)).toBe(true);
    expect(isRulePrincipalArn(session('ci'))).toBe(false);
    expect(isRulePrincipalArn(`arn:aws:iam::${ACCOUNT}:root`)).toBe(false);
    expect(isRulePrincipalArn('ci')).toBe(false);
  });
});

describe('callerRoleArn', () => {
  it("gives a role session's role, in its partition and account", () => {
    expect(callerRoleArn(session('ci'))).toBe(`arn:aws:iam::${ACCOUNT}:role/ci`);
    expect(callerRoleArn(`arn:aws-cn:sts::${ACCOUNT}:assumed-role/ci/s1`)).toBe(`arn:aws-cn:iam::${ACCOUNT}:role/ci`);
  });

  it('leaves a user, and whatever it cannot read, as it is', () => {
    expect(callerRoleArn(`arn:aws:iam::${ACCOUNT}:user/ops/alice`)).toBe(`arn:aws:iam::${ACCOUNT}:user/ops/alice`);
    expect(callerRoleArn('not an arn')).toBe('not an arn');
  });
});

describe('principalMatches', () => {
  const ci = `arn:aws:iam::${ACCOUNT}:role/ci`;

  it("admits a session of a rule's role", () => {
    expect(principalMatches([ci], session('ci'))).toBe(true);
    expect(matchingPrincipal([`arn:aws:iam::${ACCOUNT}:role/other`, ci], session('ci'))).toBe(ci);
  });

  it("admits a session of a rule's role with a path, which the session's ARN does not carry", () => {
    const withPath = `arn:aws:iam::${ACCOUNT}:role/team/deploy/ci`;
    expect(matchingPrincipal([withPath], session('ci'))).toBe(withPath);
  });

  it('refuses another role, another account, another partition, a name differing in case', () => {
    expect(principalMatches([ci], session('deploy'))).toBe(false);
    expect(principalMatches([ci], session('ci', 'build-1', '210987654321'))).toBe(false);
    expect(principalMatches([ci], `arn:aws-cn:sts::${ACCOUNT}:assumed-role/ci/build-1`)).toBe(false);
    expect(principalMatches([ci], session('CI'))).toBe(false);
    expect(principalMatches([ci], session('ci-2'))).toBe(false);
    expect(principalMatches([], session('ci'))).toBe(false);
  });

  it('admits an IAM user by its exact ARN only', () => {
    const alice = `arn:aws:iam::${ACCOUNT}:user/ops/alice`;
    expect(principalMatches([alice], alice)).toBe(true);
    expect(principalMatches([`arn:aws:iam::${ACCOUNT}:user/alice`], alice)).toBe(false);
    expect(principalMatches([`arn:aws:iam::${ACCOUNT}:role/ops/alice`], alice)).toBe(false);
  });

  it('never admits a rule written as a session ARN, the root user or a federated user', () => {
    expect(principalMatches([session('ci')], session('ci'))).toBe(false);
    const root = `arn:aws:iam::${ACCOUNT}:root`;
    expect(principalMatches([root], root)).toBe(false);
    const federated = `arn:aws:sts::${ACCOUNT}:federated-user/bob`;
    expect(
      principalMatches([federated, `arn:aws:iam::${ACCOUNT}:user/bob`, `arn:aws:iam::${ACCOUNT}:role/bob`], federated),
    ).toBe(false);
  });

  it('admits nothing for a caller it cannot read, and reads past a rule it cannot read', () => {
    const role = `arn:aws:iam::${ACCOUNT}:role/ci`;
    expect(matchingPrincipal([role], 'not an ARN')).toBeUndefined();
    expect(matchingPrincipal(['not an ARN', role], session('ci'))).toBe(role);
  });

  it('admits a session exactly when its role has the name of a rule role in the same account', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9+=,.@_-]{1,12}$/);
    const path = fc
      .array(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 3 })
      .map((parts) => parts.map((p) => `${p}/`).join(''));
    fc.assert(
      fc.property(name, name, path, (ruleName, callerName, rulePath) => {
        const rule = `arn:aws:iam::${ACCOUNT}:role/${rulePath}${ruleName}`;
        expect(principalMatches([rule], session(callerName))).toBe(ruleName === callerName);
      }),
    );
  });
});
