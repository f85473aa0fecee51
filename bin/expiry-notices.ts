/**
 * `npm run expiry-notices`: runs the hourly expiry-notice job once, now, and prints one line per
 * `token.expiring` event it sent. Safe to run at any time and as often as you like: a notice is sent
 * once.
 *
 * Against the local service: `DYNAMODB_ENDPOINT` (printed by `npm start`) and `TABLE_NAME` (default
 * `secrets-service-local`). Against a deployment: `TABLE_NAME` (the stack's `TableName` output) with the
 * operator's own AWS credentials and region, as for the AWS CLI.
 */
import type { AuditEvent } from '@contract/audit';
import { useTableEnv } from './table-env';

const describe = (event: AuditEvent): string =>
  `token.expiring ${event.target.tokenId} ${JSON.stringify(event.details.name)} of user ${event.target.userId}: ` +
  `${event.details.daysLeft} ${event.details.daysLeft === 1 ? 'day' : 'days'} or less left, ` +
  `expires ${event.details.expiresAt} (event ${event.id})`;

const run = async (): Promise<void> => {
  useTableEnv();
  // The data layer reads its environment when loaded.
  const { expiryNotices } =
    require('@lambdas/composition/expiry-notices') as typeof import('@lambdas/composition/expiry-notices');
  const { due, sent, retired } = await expiryNotices.sendExpiryNotices(new Date());
  for (const event of sent) console.log(describe(event));
  // The summary goes to stderr, so that stdout holds exactly one line per event.
  console.error(
    `${process.env.TABLE_NAME}: ${due} expiry notices due, ${sent.length} sent, ${retired} of expired or replaced tokens dropped, ${due - sent.length - retired} skipped (sent by another run, or the token changed meanwhile).`,
  );
};

run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
