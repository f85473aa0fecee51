import type { KeyWrapper } from './envelope';
import { kmsKeyWrapper } from './kms-key-wrapper';
import { localKeyWrapper } from './local-key-wrapper';

/**
 * The one choice of how data keys are wrapped: by KMS under `SECRETS_KEY_ID` when it is set; else
 * locally, under the key kept in `LOCAL_WRAPPING_KEY_FILE` or, without it, a key random per process.
 * Inside Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set) the key id is required: a random local key there
 * would encrypt values that no later container could read.
 */
export const chooseKeyWrapper = (env: NodeJS.ProcessEnv): KeyWrapper => {
  const keyId = env.SECRETS_KEY_ID;
  if (keyId) return kmsKeyWrapper(keyId);
  if (env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('Environment variable SECRETS_KEY_ID must be set');
  return localKeyWrapper(env.LOCAL_WRAPPING_KEY_FILE || undefined);
};

/**
 * This process's key wrapper, chosen once when it loads: every function of the local runtime shares
 * the one process, so they share one random local key too.
 */
export const keyWrapper: KeyWrapper = chooseKeyWrapper(process.env);
