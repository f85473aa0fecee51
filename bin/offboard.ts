/**
 * `npm run offboard -- <email or user id>`: revokes every token of a user and removes their
 * memberships except ownerships, which it lists for an operator to transfer. Safe to run again.
 *
 * Against the local service: `DYNAMODB_ENDPOINT` (printed by `npm start`) and `TABLE_NAME` (default
 * `secrets-service-local`). Against a deployment: `TABLE_NAME` (the stack's `TableName` output) with the
 * operator's own AWS credentials and region, as for the AWS CLI.
 */
import { useTableEnv } from './table-env';

const offboard = async (): Promise<void> => {
  const who = process.argv[2];
  if (!who) {
    console.error('Usage: npm run offboard -- <email or user id>');
    process.exit(2);
  }
  useTableEnv();
  // The data layer reads its environment when loaded.
  const { offboarding } =
    require('@lambdas/composition/offboarding') as typeof import('@lambdas/composition/offboarding');
  const report = await offboarding.offboardUser(who, new Date());
  const user = `${report.userId}${report.email ? ` (${report.email})` : ''}`;
  console.log(
    report.alreadyOffboardedAt
      ? `User ${user} was already offboarded at ${report.alreadyOffboardedAt} in ${process.env.TABLE_NAME}; this run found:`
      : `Offboarded user ${user} in ${process.env.TABLE_NAME}:`,
  );
  console.log(`  tokens revoked: ${report.revokedTokens.length ? report.revokedTokens.join(', ') : 'none'}`);
  console.log(`  removed from projects: ${report.removedFrom.length ? report.removedFrom.join(', ') : 'none'}`);
  console.log(
    report.ownedProjects.length
      ? `  still owns (transfer or close these): ${report.ownedProjects.join(', ')}`
      : '  owns no project',
  );
};

offboard().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
