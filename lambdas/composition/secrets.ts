import { dataKeys, decryptValue, encryptValue } from '@lambdas/crypto/envelope';
import { keyWrapper } from '@lambdas/crypto/key-wrapper';
import { sameDigest, valueDigest } from '@lambdas/crypto/value-digest';
import * as secretRepository from '@lambdas/data/secret-repository';
import type { RequestOrigin } from '@lambdas/domain/audit';
import type { Principal } from '@lambdas/domain/principal';
import type { InEnvironment, InProject, SecretDeps } from '@lambdas/use-cases/secrets';

/** How values are sealed and digested, over one cache of the projects' data keys per function. */
export const secretCrypto = {
  keys: dataKeys(keyWrapper),
  encryptValue,
  decryptValue,
  digestValue: valueDigest,
  sameDigest,
};

/**
 * What the secret use cases work over (the composition root of their routes). A route imports the one
 * use case it calls, so that its bundle carries no other.
 */
export const secretDeps: SecretDeps = { secrets: secretRepository, crypto: secretCrypto };

/** A secret route's request as the use cases take it: its caller, origin and instant, and its environment. */
export const inEnvironment = (request: {
  readonly principal: Principal;
  readonly origin: RequestOrigin;
  readonly now: Date;
  readonly params: { readonly projectId: string; readonly environment: string };
}): InEnvironment => ({
  caller: request.principal,
  origin: request.origin,
  now: request.now,
  projectId: request.params.projectId,
  environment: request.params.environment,
});

/** A request about two environments of a project (compare, promote) as the use cases take it. */
export const inProject = (request: {
  readonly principal: Principal;
  readonly origin: RequestOrigin;
  readonly now: Date;
  readonly params: { readonly projectId: string };
}): InProject => ({
  caller: request.principal,
  origin: request.origin,
  now: request.now,
  projectId: request.params.projectId,
});
