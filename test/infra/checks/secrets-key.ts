import { routes } from '@contract/routes';
import {
  actionsOf,
  type PolicyStatement,
  type Synthesized,
  statementsOfRole as statementsOfTemplateRole,
  synthesize,
} from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of the secrets key: one customer-managed KMS key, rotated, retained, whose key policy
// names no function; each route's function may make exactly the calls its contract's `keyUse` states,
// on this key only, and only under an encryption context of `projectId` alone. Synthesized without
// bundling.

type Json = Record<string, unknown>;
type Statement = PolicyStatement;

let synthesized: Synthesized;

beforeAll(() => {
  synthesized = synthesize();
});

const resourcesOf = (type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;
const logicalId = (construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const keyId = () => logicalId(synthesized.stack.dataStore.secretsKey);
const keyArn = () => ({ 'Fn::GetAtt': [keyId(), 'Arn'] });
/** The properties of the resource with this logical id; a missing one fails the test. */
const propertiesOf = (type: string, id: string): Json => {
  const resource = resourcesOf(type)[id];
  if (!resource) throw new Error(`No ${type} ${id}`);
  return resource.Properties as Json;
};
/** Every statement of every identity policy attached to the role. */
const statementsOfRole = (roleLogicalId: string): Statement[] =>
  statementsOfTemplateRole(synthesized.template, roleLogicalId);

/** The role's statements that name a KMS action or the secrets key. */
const kmsStatementsOf = (roleLogicalId: string): Statement[] =>
  statementsOfRole(roleLogicalId).filter(
    (statement) =>
      actionsOf(statement).some((action) => action.startsWith('kms:')) ||
      JSON.stringify(statement.Resource).includes(keyId()),
  );

/** Every function of the service and CDK's, by the logical id of its role. */
const functionsByRole = (): [string, Json][] =>
  Object.entries(resourcesOf('AWS::Lambda::Function')).map(([id, resource]) => {
    const role = (resource.Properties as Json).Role as { 'Fn::GetAtt': [string, string] };
    return [role['Fn::GetAtt'][0], { id, ...(resource.Properties as Json) }];
  });

const CONTEXT_CONDITION = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['projectId'] },
  Null: { 'kms:EncryptionContext:projectId': 'false' },
};

describe('the secrets key', () => {
  it('is a symmetric customer-managed key with automatic rotation, a description and an alias', () => {
    const properties = propertiesOf('AWS::KMS::Key', keyId());
    expect(properties).toMatchObject({ EnableKeyRotation: true, Description: expect.stringContaining('project') });
    // Symmetric encryption (the default spec): GenerateDataKey and an encryption context need it.
    expect(properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    const aliases = Object.values(resourcesOf('AWS::KMS::Alias'))
      .map((alias) => alias.Properties as Json)
      .filter((alias) => JSON.stringify(alias.TargetKeyId) === JSON.stringify(keyArn()));
    expect(aliases).toEqual([{ AliasName: 'alias/SecretsService/secrets', TargetKeyId: keyArn() }]);
  });

  it('is retained on stack delete and on replacement: a deleted key loses every secret', () => {
    expect(resourcesOf('AWS::KMS::Key')[keyId()]).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it("has a key policy of one statement, the account's own delegation to IAM, naming no function and no one else", () => {
    const policy = propertiesOf('AWS::KMS::Key', keyId()).KeyPolicy as { Statement: Statement[] };
    expect(policy.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:*',
        Principal: {
          AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']] },
        },
        Resource: '*',
      },
    ]);
  });

  it.each(routes.map((route) => [route.handler, route] as const))(
    "lets %s make exactly its contract's keyUse calls, on this key, under a {projectId} context only",
    (handler, route) => {
      const fn = synthesized.stack.serviceApi.routeFunctions.get(handler);
      if (!fn) throw new Error(`No function for ${handler}`);
      const statements = kmsStatementsOf(logicalId(fn.role));
      const environment = (
        propertiesOf('AWS::Lambda::Function', logicalId(fn.lambdaFunction)).Environment as {
          Variables: Json;
        }
      ).Variables;
      if (route.keyUse === undefined) {
        expect(statements).toEqual([]);
        expect(environment).not.toHaveProperty('SECRETS_KEY_ID');
        return;
      }
      expect(environment.SECRETS_KEY_ID).toEqual(keyArn());
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: expect.anything(),
          Resource: keyArn(),
          Condition: CONTEXT_CONDITION,
        },
      ]);
      expect(actionsOf(statements[0] as Statement).sort()).toEqual(route.keyUse.map((use) => `kms:${use}`).sort());
    },
  );

  it('is used by some routes and the webhook delivery, and every other function has no KMS permission and no SECRETS_KEY_ID', () => {
    const keyed = new Set([
      ...routes
        .filter((route) => route.keyUse !== undefined)
        .map((route) => {
          const fn = synthesized.stack.serviceApi.routeFunctions.get(route.handler);
          if (!fn) throw new Error(`No function for ${route.handler}`);
          return logicalId(fn.role);
        }),
      logicalId(synthesized.stack.webhookDelivery.function.role),
    ]);
    expect(keyed.size).toBeGreaterThan(0);
    const others = functionsByRole().filter(([role]) => !keyed.has(role));
    expect(others.length).toBeGreaterThan(routes.length - keyed.size);
    for (const [role, fn] of others) {
      expect({ fn: fn.id, statements: kmsStatementsOf(role) }).toEqual({ fn: fn.id, statements: [] });
      const variables = (fn.Environment as { Variables?: Json } | undefined)?.Variables ?? {};
      expect({ fn: fn.id, keyId: variables.SECRETS_KEY_ID }).toEqual({ fn: fn.id, keyId: undefined });
    }
  });

  it('is named in no policy but the roles of the keyUse routes and the webhook delivery (no queue, topic or other role may use it)', () => {
    const keyed = new Set([
      ...routes
        .filter((route) => route.keyUse !== undefined)
        .map((route) => logicalId(synthesized.stack.serviceApi.routeFunctions.get(route.handler)?.role as IConstruct)),
      logicalId(synthesized.stack.webhookDelivery.function.role),
    ]);
    const naming = Object.values(resourcesOf('AWS::IAM::Policy'))
      .map((resource) => resource.Properties as Json)
      .filter((properties) => JSON.stringify(properties.PolicyDocument).includes(keyId()))
      .flatMap((properties) => (properties.Roles as Json[]).map((role) => role.Ref as string));
    expect(new Set(naming)).toEqual(keyed);
  });
});
