import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { expiryNotices } from '@lambdas/composition/expiry-notices';
import { clock } from '@lambdas/domain/clock';
import { logger, tracer } from '@lambdas/observability';
import middy from '@middy/core';

/**
 * Sends the expiry notices due now; EventBridge Scheduler invokes it every hour (asynchronously), with
 * a payload it does not read: what is due follows from the time it runs, so a late or repeated
 * invocation does the right thing. A failure is thrown, so that Lambda retries it and finally keeps
 * it in the dead-letter queue; the next hour's run sends whatever is still due.
 */
export const sendExpiryNoticesHandler = async (): Promise<void> => {
  const now = clock.now();
  try {
    const { due, sent, retired } = await expiryNotices.sendExpiryNotices(now);
    logger.info('expiry notices sent', {
      due,
      sent: sent.length,
      retired,
      notices: sent.map((event) => ({ tokenId: event.target.tokenId, daysLeft: event.details.daysLeft })),
    });
  } catch (error) {
    logger.error('expiry notices failed', { error });
    throw error;
  }
};

export const handler = middy(sendExpiryNoticesHandler)
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(injectLambdaContext(logger));
