import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';

/**
 * Adds the cdk-nag packs the stack must pass (AwsSolutions and Serverless) as policy validation
 * plugins: an unacknowledged finding of either fails `cdk synth`. bin/app.ts and the infra tests both
 * call this, so the tests check exactly what `cdk synth` checks.
 *
 * @returns the pack names, as they appear as plugin names in the validation report
 */
export const addNagPacks = (app: App): readonly string[] => {
  const packs = [new AwsSolutionsChecks(app), new ServerlessChecks(app)];
  Validations.of(app).addPlugins(...packs);
  return packs.map((pack) => pack.readPackName);
};
