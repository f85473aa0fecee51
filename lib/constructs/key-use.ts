import type { RouteContract } from '@contract/route';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';

/**
 * The one key of the encryption context the functions send with every call on the secrets key
 * (lambdas/crypto/kms-key-wrapper.ts: `{projectId}`).
 */
export const SECRETS_KEY_CONTEXT_KEY = 'projectId';

/**
 * The condition on every grant of the secrets key: the request's encryption context has the key
 * `projectId` (`Null` false) and no other (`ForAllValues:StringEquals` on `kms:EncryptionContextKeys`;
 * on its own it would also pass a request with no context at all, hence the `Null` check).
 */
export const secretsKeyCondition = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [SECRETS_KEY_CONTEXT_KEY] },
  Null: { [`kms:EncryptionContext:${SECRETS_KEY_CONTEXT_KEY}`]: 'false' },
};

/**
 * Grants a function exactly the KMS calls its contract's `keyUse` lists, on the secrets key only and
 * only under the `{projectId}` encryption context. Through the role, not the key policy: the key policy
 * stays CDK's default (the account may delegate use through IAM), so no function is named in it.
 */
export const grantKeyUse = (role: IRole, key: IKey, keyUse: NonNullable<RouteContract['keyUse']>): void => {
  if (keyUse.length === 0) return;
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: [...new Set(keyUse)].sort().map((use) => `kms:${use}`),
      resources: [key.keyArn],
      conditions: secretsKeyCondition,
    }),
  );
};
