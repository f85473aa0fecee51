import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { environmentName, projectId, secretName } from './schemas';
import type { DataCall } from './work';

/** What the routes of an environment's secrets share: their path parameters and their one kind of write. */

/** The path parameters of a route about an environment's secrets. */
export const environmentParams = () => z.object({ projectId: projectId(), environment: environmentName() });

/** The two environments a compare or a promote names: the fields of its query or body. */
export const environmentPair = () => ({
  from: environmentName().check(z.describe('The environment secrets are compared or promoted from')),
  to: environmentName().check(z.describe('The environment secrets are compared or promoted to')),
});

/** A compare or a promote names two environments, not one twice. */
export const twoEnvironments = () =>
  z.refine<{ readonly from: string; readonly to: string }>((pair) => pair.from !== pair.to, {
    message: 'Name two environments: from and to are the same',
    path: ['to'],
  });

/** The path parameters of a route about one secret. */
export const secretParams = () =>
  z.object({ projectId: projectId(), environment: environmentName(), name: secretName() });

/** The 404 each malformed path parameter of a route about one secret answers. */
export const SECRET_PARAM_ERRORS = {
  projectId: ErrorText.projectNotFound,
  environment: ErrorText.environmentNotFound,
  name: ErrorText.secretNotFound,
} as const;

/**
 * The one transaction of every secret write: the membership checked again, the environment's counts
 * kept under their limits, each secret's head replaced only if its version is still the one read
 * (check-and-set), its new version put, and its event. A project's first write also updates the
 * project in it, storing the new data key (an update of the project's partition, as the
 * environment's is, so it needs no other grant).
 */
export const secretWrite: DataCall = {
  operation: 'TransactWriteItems',
  actions: [
    { action: 'ConditionCheck', entity: 'Member' },
    { action: 'Update', entity: 'Environment' },
    { action: 'Put', entity: 'SecretHead' },
    { action: 'Put', entity: 'SecretVersion' },
    { action: 'Put', entity: 'ProjectAuditEvent' },
  ],
};

/**
 * A refusal for the caller's access to the environment, recorded in the trails (`access.denied`): what
 * a route under an environment writes when it answers 403 `Insufficient environment access`.
 */
export const accessDenial: DataCall = { operation: 'PutItem', entity: 'ProjectAuditEvent', beyondFloor: true };
