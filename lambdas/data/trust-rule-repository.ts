import type { AuditEvent, SignInRefusal } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_TRUST_RULES, type StoredTrustRule } from '@contract/trust-rules';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { TokenRecord, TrustRulesRecord } from '@lambdas/domain/records';
import { auditEventPut } from './audit-repository';
import { getItem, type TableWrite, transactWrite } from './client';
import { serviceAccountKey, trustRulesKey } from './keys';
import { managerCheck } from './manager-check';
import { tokenItem } from './token-repository';

/*
 * A service account's trust rules: one item addressed by the service account's id, holding its
 * project and its rules (a list, oldest first), so a sign-in finds both in one read. Every change
 * checks in its own transaction that the caller still manages the project; an add, that the service
 * account still exists and its rules are below their limit; a delete, that the rule is still where it
 * was read. Deleting the service account deletes the item in the same transaction.
 */

/** Rounds of a delete that lost a race to another change of the rules before giving up (503). */
const MAX_ATTEMPTS = 5;

/** A service account's rules and project, strongly consistent; none before its first rule. */
export const getTrustRules = (serviceAccountId: string): Promise<TrustRulesRecord | undefined> =>
  getItem<TrustRulesRecord>(trustRulesKey(serviceAccountId), true);

/** The check that a service account still exists. */
const serviceAccountExists = (projectId: string, serviceAccountId: string): TableWrite => ({
  ConditionCheck: { Key: serviceAccountKey(projectId, serviceAccountId), ConditionExpression: 'attribute_exists(PK)' },
});

/**
 * Appends a rule with its event while the manager manages the project and the service account exists,
 * below `MAX_TRUST_RULES`. 404 for either, 409 at the limit.
 */
export const addTrustRule = async (
  managerUserId: string,
  projectId: string,
  serviceAccountId: string,
  rule: StoredTrustRule,
  event: AuditEvent,
): Promise<void> => {
  const outcome = await transactWrite(
    [
      managerCheck(projectId, managerUserId),
      serviceAccountExists(projectId, serviceAccountId),
      {
        Update: {
          Key: trustRulesKey(serviceAccountId),
          UpdateExpression:
            'SET entity = :entity, serviceAccountId = :serviceAccount, projectId = :project, #rules = list_append(if_not_exists(#rules, :none), :rule)',
          ConditionExpression: 'attribute_not_exists(PK) OR (projectId = :project AND size(#rules) < :max)',
          ExpressionAttributeNames: { '#rules': 'rules' },
          ExpressionAttributeValues: {
            ':entity': 'TrustRules',
            ':serviceAccount': serviceAccountId,
            ':project': projectId,
            ':none': [],
            ':rule': [rule],
            ':max': MAX_TRUST_RULES,
          },
        },
      },
      auditEventPut(event, { userId: managerUserId, projectId }),
    ],
    [0, 1, 2],
  );
  if (outcome.ok) return;
  if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
  if (outcome.conditionFailed.includes(1)) throw new NotFoundError(ErrorText.serviceAccountNotFound);
  throw new ConflictError(ErrorText.trustRuleLimit);
};

/**
 * Removes one rule with its event while the manager manages the project: the rule is removed only from
 * the place it was at in `read` (a concurrent change moves it: read again). 404 when it is gone.
 */
export const deleteTrustRule = async (
  managerUserId: string,
  projectId: string,
  serviceAccountId: string,
  ruleId: string,
  event: AuditEvent,
  read: TrustRulesRecord,
): Promise<void> => {
  let stored: TrustRulesRecord | undefined = read;
  for (let attempt = 1; ; attempt += 1) {
    const index = stored?.projectId === projectId ? stored.rules.findIndex((rule) => rule.id === ruleId) : -1;
    if (index < 0) throw new NotFoundError(ErrorText.trustRuleNotFound);
    const outcome = await transactWrite(
      [
        managerCheck(projectId, managerUserId),
        {
          Update: {
            Key: trustRulesKey(serviceAccountId),
            UpdateExpression: `REMOVE #rules[${index}]`,
            ConditionExpression: `#rules[${index}].id = :rule`,
            ExpressionAttributeNames: { '#rules': 'rules' },
            ExpressionAttributeValues: { ':rule': ruleId },
          },
        },
        auditEventPut(event, { userId: managerUserId, projectId }),
      ],
      [0, 1],
    );
    if (outcome.ok) return;
    if (outcome.conditionFailed.includes(0)) throw new NotFoundError(ErrorText.projectNotFound);
    if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError({ cause: outcome.cause });
    stored = await getTrustRules(serviceAccountId);
  }
};

/**
 * Stores a token got by signing in (its hash only) with its event, while the service account still
 * exists; false when it was deleted meanwhile.
 */
export const recordSignIn = async (token: TokenRecord, projectId: string, event: AuditEvent): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      { Put: { Item: tokenItem(token), ConditionExpression: 'attribute_not_exists(PK)' } },
      serviceAccountExists(projectId, token.userId),
      auditEventPut(event, { userId: token.userId, projectId }),
    ],
    [1],
  );
  return outcome.ok;
};

/** The trust item's attribute that holds when a refusal for this reason was last recorded. */
const refusalMark = (reason: SignInRefusal): string => `deniedAt_${reason}`;

/**
 * Records a refused sign-in of an existing service account with its event, at most once per service
 * account, reason and `intervalMs` (the mark's age is the transaction's condition, so a flood of bad
 * proofs cannot turn into a flood of writes). Answers whether it recorded.
 */
export const recordSignInRefusal = async (
  serviceAccountId: string,
  projectId: string,
  reason: SignInRefusal,
  event: AuditEvent,
  now: Date,
  intervalMs: number,
): Promise<boolean> => {
  const outcome = await transactWrite(
    [
      {
        Update: {
          Key: trustRulesKey(serviceAccountId),
          UpdateExpression: 'SET #mark = :now',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#mark) OR #mark < :threshold)',
          ExpressionAttributeNames: { '#mark': refusalMark(reason) },
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':threshold': new Date(now.getTime() - intervalMs).toISOString(),
          },
        },
      },
      auditEventPut(event, { userId: serviceAccountId, projectId }),
    ],
    [0],
  );
  return outcome.ok;
};
