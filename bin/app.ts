#!/usr/bin/env node
import { loadConfig } from '@lib/config';
import { ServiceStack } from '@lib/service-stack';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

const app = new App();
// cdk-nag 3 runs as a policy validation plugin: an unacknowledged finding fails `cdk synth`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
new ServiceStack(app, 'SecretsService', {
  description: 'Secrets Service auth and membership API',
  config: loadConfig(app),
});
