import { expiryNoticeTableAccess } from '@contract/table-access';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue';
import { type NestedBackgroundFunctionProps, ServiceFunction, serviceEnvironment } from './service-function';
import { grantTableAccess } from './table-access';

/** Entry file of the expiry-notice function. */
export const EXPIRY_NOTICES_ENTRY = 'lambdas/events/send-expiry-notices.ts';

/** How often the notices due are sent: the latest a notice comes after it fell due. */
export const EXPIRY_NOTICES_RATE = Duration.hours(1);

/**
 * Tokens about to expire are announced: an EventBridge Scheduler schedule runs the expiry-notice
 * function every hour, which sends each `token.expiring` notice that has fallen due (the code of
 * `npm run expiry-notices`). Scheduler invokes the function asynchronously: it retries a failed
 * delivery for up to an hour (by then the next run is due, and a run catches up on whatever earlier
 * ones missed), Lambda retries a failed run twice, and what fails all of that is kept in the
 * dead-letter queue, whose alarm the stack's observability raises.
 *
 * The function, its role, log group, the schedule and Scheduler's role live in `statelessScope` (a nested
 * stack); the dead-letter queue stays in the root stack.
 */
export class ExpiryNotices extends Construct {
  readonly function: ServiceFunction;
  readonly schedule: Schedule;
  /** The role Scheduler assumes: it may invoke this function and write to the dead-letter queue, nothing else. */
  readonly schedulerRole: Role;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: NestedBackgroundFunctionProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'the expiry-notice schedule and function');

    const stateless = new Construct(props.statelessScope, id);
    this.function = new ServiceFunction(stateless, 'Function', {
      entry: EXPIRY_NOTICES_ENTRY,
      description: 'Sends the token.expiring notices due (7 days and 1 day before a token expires), hourly',
      logRetention: props.logRetention,
      environment: serviceEnvironment(props),
      // One conditional transaction per notice, one after another: far more notices than an hour brings.
      timeout: Duration.minutes(5),
      deadLetterQueue: this.deadLetterQueue,
    });
    grantTableAccess(this.function.role, props.table, expiryNoticeTableAccess);

    // Only Scheduler acting for this account's schedules of the default group may assume it (the
    // schedule's own ARN would make the role and the schedule depend on each other).
    const { account, region, partition } = Stack.of(stateless);
    this.schedulerRole = new Role(stateless, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': account,
            'aws:SourceArn': `arn:${partition}:scheduler:${region}:${account}:schedule-group/default`,
          },
        },
      }),
      description: 'EventBridge Scheduler invokes the expiry-notice function with this role',
    });
    this.schedule = new Schedule(stateless, 'Hourly', {
      description: 'Sends the token.expiring notices due',
      schedule: ScheduleExpression.rate(EXPIRY_NOTICES_RATE),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.function.lambdaFunction, {
        role: this.schedulerRole,
        deadLetterQueue: this.deadLetterQueue,
        retryAttempts: 10,
        maxEventAge: EXPIRY_NOTICES_RATE,
      }),
    });
    const functionArn = `<${Stack.of(stateless).getLogicalId(this.function.lambdaFunction.node.defaultChild as CfnFunction)}.Arn>`;
    Validations.of(this.schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${functionArn}:*]`,
      reason:
        "lambda:InvokeFunction on the expiry-notice function's own versions and aliases (the target's grantInvoke names the function and `<arn>:*`); the role may invoke no other function.",
    });
  }
}
