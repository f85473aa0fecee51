#!/usr/bin/env node
import { loadConfig } from '@lib/config';
import { addNagPacks } from '@lib/nag-packs';
import { ServiceStack } from '@lib/service-stack';
import { App } from 'aws-cdk-lib';

const app = new App();
// cdk-nag 3 runs as policy validation plugins: an unacknowledged finding fails `cdk synth`.
addNagPacks(app);
new ServiceStack(app, 'SecretsService', {
  description: 'Secrets Service: encrypted secrets, API tokens, sessions and project members',
  config: loadConfig(app),
});
