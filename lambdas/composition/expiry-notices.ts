import { listDueNotices, retireExpiryNotice, sendExpiryNotice } from '@lambdas/data/expiry-notice-repository';
import { sendExpiryNotices } from '@lambdas/use-cases/expiry-notices';

/** The hourly run that sends the expiry notices due (the composition root of its function and command). */
export const expiryNotices = {
  sendExpiryNotices: (now: Date) => sendExpiryNotices({ listDueNotices, sendExpiryNotice, retireExpiryNotice }, now),
};
