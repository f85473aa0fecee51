import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { offboarding } from '@lambdas/composition/offboarding';
import { clock } from '@lambdas/domain/clock';
import { logger, tracer } from '@lambdas/observability';
import middy from '@middy/core';
import type { EventBridgeEvent } from 'aws-lambda';

/**
 * What the function reads of a CloudTrail record of a Cognito user-pool call. Cognito masks the user
 * name in these records but records the user's `sub` (AWS: "Amazon Cognito records UserSub but not
 * UserName in CloudTrail logs for requests that are specific to a user"), in `additionalEventData`.
 */
export interface CognitoCallDetail {
  readonly eventSource?: string;
  readonly eventName?: string;
  readonly errorCode?: string;
  readonly additionalEventData?: { readonly sub?: unknown };
}

/** The EventBridge event of such a call. */
export type CognitoCallEvent = EventBridgeEvent<'AWS API Call via CloudTrail', CognitoCallDetail>;

/**
 * Offboards the user a Cognito AdminDisableUser, AdminDeleteUser or DeleteUser call removed: revokes
 * their tokens and removes their memberships but ownerships, as `npm run offboard` does. A call that
 * failed removed nobody and is skipped; an event without a `sub` fails loudly (retried, then kept in
 * the dead-letter queue for an operator), since no user can be named from it.
 */
export const offboardUserHandler = async (event: CognitoCallEvent): Promise<void> => {
  const { eventName, errorCode, additionalEventData } = event.detail;
  if (errorCode) {
    logger.info('offboarding skipped: the call failed', { eventId: event.id, eventName, errorCode });
    return;
  }
  const sub = additionalEventData?.sub;
  if (typeof sub !== 'string' || sub === '') {
    logger.error('offboarding impossible: the event names no user', { eventId: event.id, eventName });
    throw new Error(`CloudTrail event ${event.id} (${eventName}) carries no additionalEventData.sub`);
  }
  try {
    const report = await offboarding.offboardUser(sub, clock.now());
    logger.info('user offboarded', { eventId: event.id, eventName, ...report });
  } catch (error) {
    logger.error('offboarding failed', { eventId: event.id, eventName, userId: sub, error });
    throw error;
  }
};

export const handler = middy(offboardUserHandler)
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(injectLambdaContext(logger));
