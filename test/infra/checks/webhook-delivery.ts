import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@contract/limits';
import { webhookDeliveryTableAccess } from '@contract/table-access';
import { WEBHOOK_DELIVERY_ENTRY } from '@lib/constructs/webhook-delivery';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of webhook delivery: the rule on the audit bus, the attempts' queues and their redrive
// (the retry schedule), the dead-letter queue, and what the delivery function may do. Synthesized
// without bundling.

type Json = Record<string, unknown>;

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const resourceOf = (construct: IConstruct): Json =>
  synthesized.template.toJSON().Resources[logicalId(construct)] as Json;
const propertiesOf = (construct: IConstruct): Json => resourceOf(construct).Properties as Json;
const logicalId = (construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const arnOf = (construct: IConstruct) => ({ 'Fn::GetAtt': [logicalId(construct), 'Arn'] });
const delivery = () => synthesized.stack.webhookDelivery;

describe('webhook delivery', () => {
  it('takes every audit event of a project from the audit bus onto the first attempt’s queue', () => {
    const rule = propertiesOf(delivery().rule);
    expect(rule.EventBusName).toEqual({ Ref: logicalId(synthesized.stack.auditStream.eventBus) });
    expect(rule.EventPattern).toEqual({
      source: ['secrets-service'],
      detail: { target: { projectId: { S: [{ prefix: 'prj_' }] } } },
    });
    expect(rule.Targets).toEqual([
      expect.objectContaining({
        Arn: arnOf(delivery().queues[0] as IConstruct),
        DeadLetterConfig: { Arn: arnOf(delivery().deadLetterQueue) },
      }),
    ]);
  });

  it('holds one queue per attempt, each waiting the schedule’s delay, then redriving to the next and finally to the dead-letter queue', () => {
    const { queues, deadLetterQueue } = delivery();
    expect(queues).toHaveLength(WEBHOOK_RETRY_DELAYS_SECONDS.length + 1);
    queues.forEach((queue, index) => {
      const properties = propertiesOf(queue);
      const next = queues[index + 1] ?? deadLetterQueue;
      expect(properties.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(next), maxReceiveCount: 1 });
      expect(properties.VisibilityTimeout).toBe(WEBHOOK_RETRY_DELAYS_SECONDS[index] ?? 60);
      // The message's first enqueue counts: every queue keeps it past the 24 hours of attempts.
      expect(properties.MessageRetentionPeriod).toBeGreaterThanOrEqual(2 * 24 * 3600);
      expect(properties.SqsManagedSseEnabled).toBe(true);
    });
    const waited = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(waited).toBeGreaterThan(23.5 * 3600);
    expect(waited).toBeLessThanOrEqual(24 * 3600);
    expect(propertiesOf(deadLetterQueue).MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('reads each queue with its own mapping, reporting failed messages one by one', () => {
    const { mappings, queues } = delivery();
    expect(mappings.map((mapping) => propertiesOf(mapping))).toEqual(
      queues.map((queue) =>
        expect.objectContaining({
          EventSourceArn: arnOf(queue),
          FunctionName: { Ref: logicalId(delivery().function.lambdaFunction) },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          BatchSize: 10,
        }),
      ),
    );
    const fn = propertiesOf(delivery().function.lambdaFunction);
    expect(fn.Timeout).toBe(30);
    const smallestVisibility = Math.min(...queues.map((queue) => propertiesOf(queue).VisibilityTimeout as number));
    expect(smallestVisibility).toBeGreaterThanOrEqual(fn.Timeout as number);
    expect(delivery().function.entry).toBe(WEBHOOK_DELIVERY_ENTRY);
  });

  it('may touch only the project partitions its calls need, decrypt under a project’s context, and consume its queues', () => {
    const statements = statementsOfRole(synthesized.template, logicalId(delivery().function.role));
    const actions = statements.flatMap((statement) => actionsOf(statement));
    const dynamo = statements.filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamo).toEqual([
      expect.objectContaining({
        Action: [...(webhookDeliveryTableAccess[0]?.actions ?? [])],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROJECT#*'] } },
      }),
    ]);
    expect(webhookDeliveryTableAccess).toEqual([
      { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'], partitions: ['PROJECT#'] },
    ]);
    const kms = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(kms).toEqual([
      expect.objectContaining({
        Action: 'kms:Decrypt',
        Resource: arnOf(synthesized.stack.dataStore.secretsKey),
        Condition: {
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['projectId'] },
          Null: { 'kms:EncryptionContext:projectId': 'false' },
        },
      }),
    ]);
    expect(actions.filter((action) => action.startsWith('sqs:')).sort()).toEqual(
      expect.arrayContaining(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:ReceiveMessage']),
    );
    expect(actions.filter((action) => action.includes('*') || /scan|send/i.test(action))).toEqual([]);
  });
});
