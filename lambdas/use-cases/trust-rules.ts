import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { StoredTrustRule, TrustRuleBody } from '@contract/trust-rules';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { BadRequestError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord, ServiceAccountRecord, TrustRulesRecord } from '@lambdas/domain/records';
import { canManageMembers } from '@lambdas/domain/roles';
import { type IssuerFlags, ruleProblem } from '@lambdas/domain/trust-rules';

/** What the trust-rule use cases read and write (the repositories). */
export interface TrustRuleStore {
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccountRecord | undefined>;
  getTrustRules(serviceAccountId: string): Promise<TrustRulesRecord | undefined>;
  /** Appends a rule with its event while the caller manages the project and the service account exists (404), below the limit (409). */
  addTrustRule(
    managerUserId: string,
    projectId: string,
    serviceAccountId: string,
    rule: StoredTrustRule,
    event: AuditEvent,
  ): Promise<void>;
  /** Removes a rule with its event while the caller manages the project; 404 when it is gone. */
  deleteTrustRule(
    managerUserId: string,
    projectId: string,
    serviceAccountId: string,
    ruleId: string,
    event: AuditEvent,
    read: TrustRulesRecord,
  ): Promise<void>;
}

/** The ports of the trust-rule use cases: the store, new ids, and the runtime's issuer rule. */
export interface TrustRulePorts {
  readonly store: TrustRuleStore;
  readonly newTrustRuleId: () => string;
  readonly flags: IssuerFlags;
}

/** A rule in one line, for the audit trail: `oidc <issuer> <subject>`, or `aws <ARN> …`. */
export const ruleLine = (rule: TrustRuleBody): string =>
  rule.kind === 'oidc' ? `oidc ${rule.issuer} ${rule.subject}` : `aws ${rule.principals.join(' ')}`;

/**
 * A service account's trust rules: whom it trusts to sign in as it without a stored secret. Its
 * project's owner and admins add, list and delete them.
 */
export const trustRuleUseCases = ({ store, newTrustRuleId, flags }: TrustRulePorts) => {
  /** The service account, once the caller is found to manage its project (404 for a non-member or none such). */
  const managed = async (caller: Principal, projectId: string, serviceAccountId: string) => {
    const [membership, serviceAccount] = await Promise.all([
      store.getMember(projectId, caller.userId),
      store.getServiceAccount(projectId, serviceAccountId),
    ]);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    if (!serviceAccount) throw new NotFoundError(ErrorText.serviceAccountNotFound);
    return serviceAccount;
  };

  const ruleEvent = (
    type: 'service_account.trust_rule.added' | 'service_account.trust_rule.deleted',
    serviceAccount: ServiceAccountRecord,
    rule: TrustRuleBody,
    origin: RequestOrigin,
    now: Date,
  ) =>
    auditEvent(
      type,
      origin,
      now,
      { projectId: serviceAccount.projectId, serviceAccountId: serviceAccount.serviceAccountId },
      { name: serviceAccount.name, note: ruleLine(rule) },
    );

  return {
    /** Adds a rule, once it passes what the contract's shape cannot say (an issuer this runtime may fetch, a real subject). */
    addTrustRule: async (
      caller: Principal,
      projectId: string,
      serviceAccountId: string,
      body: TrustRuleBody,
      origin: RequestOrigin,
      now: Date,
    ): Promise<StoredTrustRule> => {
      const problem = ruleProblem(body, flags);
      if (problem) throw new BadRequestError(ErrorText.validation, [{ path: problem.field, message: problem.message }]);
      const serviceAccount = await managed(caller, projectId, serviceAccountId);
      const rule = { id: newTrustRuleId(), ...body, createdAt: toIso(now) } as StoredTrustRule;
      const event = ruleEvent('service_account.trust_rule.added', serviceAccount, body, origin, now);
      await store.addTrustRule(caller.userId, projectId, serviceAccountId, rule, event);
      return rule;
    },

    /** The service account's rules, oldest first. */
    listTrustRules: async (caller: Principal, projectId: string, serviceAccountId: string) => {
      const [, stored] = await Promise.all([
        managed(caller, projectId, serviceAccountId),
        store.getTrustRules(serviceAccountId),
      ]);
      return stored?.projectId === projectId ? stored.rules : [];
    },

    /** Deletes a rule: no sign-in passes it any more (tokens it gave live out their minutes). */
    deleteTrustRule: async (
      caller: Principal,
      projectId: string,
      serviceAccountId: string,
      ruleId: string,
      origin: RequestOrigin,
      now: Date,
    ): Promise<void> => {
      const [serviceAccount, stored] = await Promise.all([
        managed(caller, projectId, serviceAccountId),
        store.getTrustRules(serviceAccountId),
      ]);
      const rule = stored?.projectId === projectId ? stored.rules.find((entry) => entry.id === ruleId) : undefined;
      if (!stored || !rule) throw new NotFoundError(ErrorText.trustRuleNotFound);
      const event = ruleEvent('service_account.trust_rule.deleted', serviceAccount, rule, origin, now);
      await store.deleteTrustRule(caller.userId, projectId, serviceAccountId, ruleId, event, stored);
    },
  };
};
