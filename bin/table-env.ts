/**
 * The table environment of the operator scripts (`npm run offboard`, `npm run expiry-notices`): with
 * `DYNAMODB_ENDPOINT` (the local service) it defaults `TABLE_NAME` to `secrets-service-local` and sets
 * local credentials and region; with no table named it prints how to name one and exits with status 2.
 * Call it before importing the data layer, which reads its environment when loaded.
 */
export const useTableEnv = (): void => {
  if (process.env.DYNAMODB_ENDPOINT) {
    process.env.TABLE_NAME ??= 'secrets-service-local';
    // DynamoDB Local accepts any credentials; these keep the SDK from looking for real ones.
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    process.env.AWS_REGION ??= 'us-east-1';
  }
  if (!process.env.TABLE_NAME) {
    console.error(
      'Set TABLE_NAME to the table (the stack output TableName), or DYNAMODB_ENDPOINT for the local service.',
    );
    process.exit(2);
  }
};
