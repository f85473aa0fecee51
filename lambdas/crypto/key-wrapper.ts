import type { KeyWrapper } from './envelope';
import { localKeyWrapper } from './local-key-wrapper';

/**
 * KMS data keys under `keyId`, the KMS client loaded with the first call: a function that never
 * unwraps a key (a list of names, a delete) never loads it, and its cold start does not pay for it.
 */
const kmsOnFirstUse = (keyId: string): KeyWrapper => {
  let loaded: Promise<KeyWrapper> | undefined;
  const wrapper = () => {
    loaded ??= import('./kms-key-wrapper').then((module) => module.kmsKeyWrapper(keyId));
    return loaded;
  };
  return {
    generate: async (projectId) => (await wrapper()).generate(projectId),
    unwrap: async (projectId, wrapped) => (await wrapper()).unwrap(projectId, wrapped),
  };
};

/**
 * The one choice of how data keys are wrapped: by KMS under `SECRETS_KEY_ID` when it is set; else
 * locally, under the key kept in `LOCAL_WRAPPING_KEY_FILE` or, without it, a key random per process.
 * Inside Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set) the key id is required: a random local key there
 * would encrypt values that no later container could read.
 */
export const chooseKeyWrapper = (env: NodeJS.ProcessEnv): KeyWrapper => {
  const keyId = env.SECRETS_KEY_ID;
  if (keyId) return kmsOnFirstUse(keyId);
  if (env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('Environment variable SECRETS_KEY_ID must be set');
  return localKeyWrapper(env.LOCAL_WRAPPING_KEY_FILE || undefined);
};

let chosen: KeyWrapper | undefined;
/** This process's choice, made on its first use (only the functions that use a key are given one). */
const chosenWrapper = (): KeyWrapper => {
  chosen ??= chooseKeyWrapper(process.env);
  return chosen;
};

/**
 * This process's key wrapper, chosen once, when a data key is first needed: every function of the
 * local runtime shares the one process, so they share one random local key too; a function deployed
 * without `SECRETS_KEY_ID` fails its first request that needs a key, never one that needs none.
 */
export const keyWrapper: KeyWrapper = {
  generate: (projectId) => chosenWrapper().generate(projectId),
  unwrap: (projectId, wrapped) => chosenWrapper().unwrap(projectId, wrapped),
};
