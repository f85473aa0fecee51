import { DecryptCommand, GenerateDataKeyCommand, KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms';
import { isUnavailable, sdkClientSettings, serviceClient } from '@lambdas/aws-sdk';
import { DecryptionError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { KeyWrapper } from './envelope';

/** Settings of the KMS client: every SDK client's retries and timeouts (`lambdas/aws-sdk.ts`). */
export const kmsClientSettings = sdkClientSettings satisfies KMSClientConfig;

/** The service's KMS client (`serviceClient`: one per container, traced, no logger middleware). */
export const kms = serviceClient(new KMSClient(kmsClientSettings));

/** KMS throttling or out of reach: answered 503, as DynamoDB's are, so the client may retry. */
const UNAVAILABLE_ERRORS = new Set([
  'ThrottlingException',
  'KMSInternalException',
  'DependencyTimeoutException',
  'TimeoutError',
  'RequestTimeout',
]);

/** KMS's refusals of a wrapped key that is not this project's under this key. */
const REFUSED_KEY_ERRORS = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/**
 * Data keys made and unwrapped by KMS under the key `keyId`, with the encryption context
 * `{projectId}`: KMS refuses to unwrap a project's key for another project, and the key policy can
 * require the context. Decrypt names the key too, so a wrapped key of any other KMS key is refused
 * rather than decrypted under whichever key made it.
 */
export const kmsKeyWrapper = (keyId: string): KeyWrapper => ({
  generate: async (projectId) => {
    try {
      const { Plaintext, CiphertextBlob } = await kms.send(
        new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: { projectId } }),
      );
      if (Plaintext === undefined || CiphertextBlob === undefined) {
        throw new Error(`KMS answered GenerateDataKey for project ${projectId} without a key`);
      }
      return { plaintext: Plaintext, wrapped: CiphertextBlob };
    } catch (error) {
      throw isUnavailable(error, UNAVAILABLE_ERRORS) ? new ServiceUnavailableError({ cause: error }) : error;
    }
  },
  unwrap: async (projectId, wrapped) => {
    try {
      const { Plaintext } = await kms.send(
        new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: { projectId } }),
      );
      if (Plaintext === undefined) throw new Error(`KMS answered Decrypt for project ${projectId} without a key`);
      return Plaintext;
    } catch (error) {
      if (isUnavailable(error, UNAVAILABLE_ERRORS)) throw new ServiceUnavailableError({ cause: error });
      if (error instanceof Error && REFUSED_KEY_ERRORS.has(error.name)) {
        throw new DecryptionError(`The data key of project ${projectId} does not unwrap under ${keyId}`, {
          cause: error,
        });
      }
      throw error;
    }
  },
});
