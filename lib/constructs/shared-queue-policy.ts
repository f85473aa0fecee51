import { type AddToResourcePolicyResult, AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type CfnQueuePolicy, Queue, QueuePolicy, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * One `AWS::SQS::QueuePolicy` for several queues: it refuses every request to any of them that does
 * not come over TLS, and holds every statement their integrations add (an EventBridge target's send,
 * a rule's dead-letter queue). CDK's `Queue` makes a policy resource per queue (with `enforceSSL`, or
 * on its first statement), each counted against the template's resources; CloudFormation's
 * `Queues` takes a list, so these queues share one.
 *
 * Each statement keeps the resource it was written for (an allow names its own queue), so the shared
 * document grants on each queue exactly what that queue's own policy did.
 */
export class SharedQueuePolicy extends QueuePolicy {
  /** The TLS-only statement: every queue that joins is added to its resources. */
  private readonly tlsOnly: PolicyStatement;
  private readonly members: Queue[] = [];

  constructor(scope: Construct, id: string) {
    super(scope, id, { queues: [] });
    this.tlsOnly = new PolicyStatement({
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['sqs:*'],
      conditions: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    this.document.addStatements(this.tlsOnly);
    this.node.addValidation({
      validate: () => (this.members.length === 0 ? ['A shared queue policy must cover at least one queue'] : []),
    });
  }

  /** The queues it covers, in the order they joined. */
  get queues(): readonly Queue[] {
    return this.members;
  }

  /** Covers `queue`: lists it in `Queues` and in the TLS-only statement's resources. */
  include(queue: Queue): void {
    this.members.push(queue);
    const resource = this.node.defaultChild as CfnQueuePolicy;
    // A real list, not a lazy one: cdk-nag's SQS4 reads the queues of each policy to find a queue's TLS deny.
    resource.queues = [...resource.queues, queue.queueUrl];
    this.tlsOnly.addResources(queue.queueArn);
  }
}

/**
 * A queue whose resource policy is a {@link SharedQueuePolicy}: TLS only from the start, and every
 * statement added to it (`addToResourcePolicy`, which a grant to a service principal calls) goes into
 * the shared document, so the queue never makes a policy resource of its own.
 */
export class PolicySharingQueue extends Queue {
  /** The policy it shares. */
  readonly sharedPolicy: SharedQueuePolicy;

  constructor(scope: Construct, id: string, props: Omit<QueueProps, 'enforceSSL'> & { policy: SharedQueuePolicy }) {
    const { policy, ...queueProps } = props;
    // The shared policy refuses non-TLS requests; `enforceSSL` would add a policy of the queue's own.
    super(scope, id, { ...queueProps, enforceSSL: false });
    this.sharedPolicy = policy;
    policy.include(this);
  }

  override addToResourcePolicy(statement: PolicyStatement): AddToResourcePolicyResult {
    this.sharedPolicy.document.addStatements(statement);
    return { statementAdded: true, policyDependable: this.sharedPolicy };
  }
}
