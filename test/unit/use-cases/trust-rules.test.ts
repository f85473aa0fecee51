import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { StoredTrustRule, TrustRuleBody } from '@contract/trust-rules';
import { BadRequestError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord, ServiceAccountRecord, TrustRulesRecord } from '@lambdas/domain/records';
import { ruleLine, type TrustRuleStore, trustRuleUseCases } from '@lambdas/use-cases/trust-rules';
import { eventLike, memberRecord, now, origin, session } from './fakes';

const projectId = 'prj_a';
const otherProject = 'prj_b';
const serviceAccountId = 'sa_0123456789abcdef';
const member = (userId: string, role: MemberRecord['role'], project = projectId) => memberRecord(userId, role, project);
const account = (project = projectId): ServiceAccountRecord => ({
  projectId: project,
  serviceAccountId,
  name: 'deploy',
  description: null,
  access: {},
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: { userId: 'u-1', email: 'ada@example.com' },
});
const github: TrustRuleBody = {
  kind: 'oidc',
  issuer: 'https://token.actions.githubusercontent.com',
  audience: 'secrets-service',
  subject: 'repo:acme/app:ref:refs/heads/main',
};
const aws: TrustRuleBody = {
  kind: 'aws',
  principals: ['arn:aws:iam::123456789012:role/deploy', 'arn:aws:iam::123456789012:user/ci'],
};

/** A project's members, service accounts and trust rules in memory; the store's own checks are the repository's. */
const fakeTrustRules = (members: MemberRecord[], accounts: ServiceAccountRecord[], stored: TrustRulesRecord[] = []) => {
  const rules = new Map(stored.map((record) => [record.serviceAccountId, record]));
  const events: AuditEvent[] = [];
  const deleted: { ruleId: string; read: TrustRulesRecord }[] = [];
  let next = 0;
  const store: TrustRuleStore = {
    getMember: async (project, userId) => members.find((m) => m.projectId === project && m.userId === userId),
    getServiceAccount: async (project, id) =>
      accounts.find((entry) => entry.projectId === project && entry.serviceAccountId === id),
    getTrustRules: async (id) => rules.get(id),
    addTrustRule: async (_manager, project, id, rule, event) => {
      rules.set(id, { serviceAccountId: id, projectId: project, rules: [...(rules.get(id)?.rules ?? []), rule] });
      events.push(event);
    },
    deleteTrustRule: async (_manager, project, id, ruleId, event, read) => {
      const current = rules.get(id)?.rules ?? [];
      rules.set(id, { serviceAccountId: id, projectId: project, rules: current.filter((rule) => rule.id !== ruleId) });
      deleted.push({ ruleId, read });
      events.push(event);
    },
  };
  const useCases = trustRuleUseCases({
    store,
    newTrustRuleId: () => `tr_000000000000000${++next}`,
    flags: { allowLoopbackHttp: false },
  });
  return { ...useCases, rules, events, deleted };
};

const as = (userId: string): Principal => ({ ...session, userId });
const team = () => [member('u-1', 'owner'), member('u-2', 'admin'), member('u-3', 'member')];

describe('ruleLine', () => {
  it('writes an oidc rule as its issuer and subject, an aws rule as its principals', () => {
    expect(ruleLine(github)).toBe('oidc https://token.actions.githubusercontent.com repo:acme/app:ref:refs/heads/main');
    expect(ruleLine(aws)).toBe('aws arn:aws:iam::123456789012:role/deploy arn:aws:iam::123456789012:user/ci');
  });
});

describe('trust rule use cases', () => {
  it('adds a rule with its id and time, recording the service account and the rule in the trail', async () => {
    const trust = fakeTrustRules(team(), [account()]);

    const added = await trust.addTrustRule(as('u-2'), projectId, serviceAccountId, github, origin, now);

    expect(added).toEqual({ id: 'tr_0000000000000001', ...github, createdAt: now.toISOString() });
    expect(trust.rules.get(serviceAccountId)?.rules).toEqual([added]);
    expect(trust.events).toEqual([
      eventLike('service_account.trust_rule.added', {
        target: expect.objectContaining({ projectId, serviceAccountId }),
        details: expect.objectContaining({ name: 'deploy', note: ruleLine(github) }),
      }),
    ]);
  });

  it('refuses a rule the contract’s shape cannot judge with a 400 naming the field, before reading anything', async () => {
    const trust = fakeTrustRules([], []);

    const refused = trust.addTrustRule(
      as('u-1'),
      projectId,
      serviceAccountId,
      { ...github, subject: '*:*' },
      origin,
      now,
    );

    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({
      message: ErrorText.validation,
      details: [{ path: 'subject', message: expect.stringMatching(/^A subject of only \* and :/) }],
    });
    expect(trust.events).toEqual([]);
  });

  it('lets only the project’s owner and admins manage its rules: 403 for a member, 404 for a stranger', async () => {
    const trust = fakeTrustRules(
      team(),
      [account()],
      [{ serviceAccountId, projectId, rules: [{ id: 'tr_0000000000000009', ...aws, createdAt: now.toISOString() }] }],
    );

    for (const act of [
      (caller: Principal) => trust.addTrustRule(caller, projectId, serviceAccountId, github, origin, now),
      (caller: Principal) => trust.listTrustRules(caller, projectId, serviceAccountId),
      (caller: Principal) =>
        trust.deleteTrustRule(caller, projectId, serviceAccountId, 'tr_0000000000000009', origin, now),
    ]) {
      await expect(act(as('u-3'))).rejects.toEqual(new ForbiddenError(ErrorText.projectRole));
      await expect(act(as('u-9'))).rejects.toEqual(new NotFoundError(ErrorText.projectNotFound));
    }
    expect(trust.rules.get(serviceAccountId)?.rules).toHaveLength(1);
    expect(trust.events).toEqual([]);
  });

  it('answers 404 for a service account that is not the project’s', async () => {
    const trust = fakeTrustRules([...team(), member('u-1', 'owner', otherProject)], [account(otherProject)]);

    await expect(trust.addTrustRule(as('u-1'), projectId, serviceAccountId, github, origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.serviceAccountNotFound),
    );
    await expect(trust.listTrustRules(as('u-1'), projectId, serviceAccountId)).rejects.toEqual(
      new NotFoundError(ErrorText.serviceAccountNotFound),
    );
  });

  it('lists the rules, oldest first, and none stored under another project', async () => {
    const first: StoredTrustRule = { id: 'tr_0000000000000001', ...github, createdAt: now.toISOString() };
    const second: StoredTrustRule = { id: 'tr_0000000000000002', ...aws, createdAt: now.toISOString() };
    const trust = fakeTrustRules(team(), [account()], [{ serviceAccountId, projectId, rules: [first, second] }]);
    const elsewhere = fakeTrustRules(
      team(),
      [account()],
      [{ serviceAccountId, projectId: otherProject, rules: [first] }],
    );

    expect(await trust.listTrustRules(as('u-2'), projectId, serviceAccountId)).toEqual([first, second]);
    expect(await elsewhere.listTrustRules(as('u-2'), projectId, serviceAccountId)).toEqual([]);
    expect(await fakeTrustRules(team(), [account()]).listTrustRules(as('u-1'), projectId, serviceAccountId)).toEqual(
      [],
    );
  });

  it('deletes a rule with an event naming it, from the rules it read', async () => {
    const rule: StoredTrustRule = { id: 'tr_0000000000000007', ...aws, createdAt: now.toISOString() };
    const read = { serviceAccountId, projectId, rules: [rule] };
    const trust = fakeTrustRules(team(), [account()], [read]);

    await trust.deleteTrustRule(as('u-1'), projectId, serviceAccountId, rule.id, origin, now);

    expect(trust.rules.get(serviceAccountId)?.rules).toEqual([]);
    expect(trust.deleted).toEqual([{ ruleId: rule.id, read }]);
    expect(trust.events).toEqual([
      eventLike('service_account.trust_rule.deleted', {
        target: expect.objectContaining({ projectId, serviceAccountId }),
        details: expect.objectContaining({ name: 'deploy', note: ruleLine(aws) }),
      }),
    ]);
  });

  it('answers 404 for a rule it does not have, or one stored under another project', async () => {
    const rule: StoredTrustRule = { id: 'tr_0000000000000007', ...aws, createdAt: now.toISOString() };
    const trust = fakeTrustRules(team(), [account()], [{ serviceAccountId, projectId, rules: [rule] }]);
    const elsewhere = fakeTrustRules(
      team(),
      [account()],
      [{ serviceAccountId, projectId: otherProject, rules: [rule] }],
    );
    const none = fakeTrustRules(team(), [account()]);

    for (const [fake, ruleId] of [
      [trust, 'tr_0000000000000008'],
      [elsewhere, rule.id],
      [none, rule.id],
    ] as const) {
      await expect(fake.deleteTrustRule(as('u-1'), projectId, serviceAccountId, ruleId, origin, now)).rejects.toEqual(
        new NotFoundError(ErrorText.trustRuleNotFound),
      );
      expect(fake.events).toEqual([]);
    }
  });
});
