import { offboardingTableAccess } from '@contract/table-access';
import { Duration } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue';
import { type NestedBackgroundFunctionProps, ServiceFunction, serviceEnvironment } from './service-function';
import { grantTableAccess } from './table-access';

/** The Cognito API calls that remove a user; CloudTrail records each with the user's `sub`. */
export const OFFBOARDING_CALLS = ['AdminDisableUser', 'AdminDeleteUser', 'DeleteUser'] as const;

/** Entry file of the offboarding function. */
export const OFFBOARDING_ENTRY = 'lambdas/events/offboard-user.ts';

/**
 * Tokens die with their owner: when a user of the stack's pool is disabled or deleted, an EventBridge
 * rule on the CloudTrail record of that call runs the offboarding (the code of `npm run offboard`).
 * CloudTrail delivers these records to EventBridge only where a trail records management events.
 * Events that fail every attempt are kept in a queue for an operator, who can offboard by hand.
 *
 * The rule does not filter on the pool: AWS documents where these records carry the `sub`, not where
 * each of the three calls carries the pool id. A user of another pool in the account offboards a user
 * id this service has never seen, which changes nothing but an empty mark.
 *
 * The function, its role, log group, rule and the rule's permission live in `statelessScope` (a nested
 * stack); the dead-letter queue stays in the root stack.
 */
export class Offboarding extends Construct {
  readonly function: ServiceFunction;
  readonly rule: Rule;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: NestedBackgroundFunctionProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'the offboarding rule and function');

    const stateless = new Construct(props.statelessScope, id);
    this.function = new ServiceFunction(stateless, 'Function', {
      entry: OFFBOARDING_ENTRY,
      description: 'Offboards a user the Cognito pool disabled or deleted: revokes tokens, removes memberships',
      logRetention: props.logRetention,
      environment: serviceEnvironment(props),
      timeout: Duration.seconds(60),
      deadLetterQueue: this.deadLetterQueue,
    });
    grantTableAccess(this.function.role, props.table, offboardingTableAccess);

    this.rule = new Rule(stateless, 'UserRemovedRule', {
      description: 'A Cognito user of the service pool was disabled or deleted',
      eventPattern: {
        source: ['aws.cognito-idp'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: {
          eventSource: ['cognito-idp.amazonaws.com'],
          eventName: [...OFFBOARDING_CALLS],
          // A failed call removed nobody.
          errorCode: [{ exists: false }],
        },
      },
      targets: [
        new LambdaFunction(this.function.lambdaFunction, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 3,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });
  }
}
