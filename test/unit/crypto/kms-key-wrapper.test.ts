process.env.AWS_REGION ??= 'us-east-1';

import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  DecryptCommand,
  DisabledException,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  KMSClient,
} from '@aws-sdk/client-kms';
import { DATA_KEY_REUSE_MS, dataKeys } from '@lambdas/crypto/envelope';
import { kms, kmsKeyWrapper } from '@lambdas/crypto/kms-key-wrapper';
import { DecryptionError, ServiceUnavailableError } from '@lambdas/domain/errors';
import { mockClient } from 'aws-sdk-client-mock';

const KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const OTHER_KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/0000abcd-12ab-34cd-56ef-1234567890ab';

const kmsMock = mockClient(KMSClient);

/**
 * KMS as far as the wrapper can tell: a data key decrypts only under the key that made it and with
 * the encryption context it was made with; anything else is `InvalidCiphertextException`, as KMS
 * answers.
 */
const fakeKms = (): void => {
  const made = new Map<string, { keyId: string; context: unknown; plaintext: Uint8Array }>();
  kmsMock.on(GenerateDataKeyCommand).callsFake((input) => {
    const plaintext = randomBytes(32);
    const blob = randomBytes(184);
    made.set(blob.toString('hex'), { keyId: input.KeyId, context: input.EncryptionContext, plaintext });
    return { KeyId: input.KeyId, Plaintext: plaintext, CiphertextBlob: blob };
  });
  kmsMock.on(DecryptCommand).callsFake((input) => {
    const entry = made.get(Buffer.from(input.CiphertextBlob).toString('hex'));
    if (
      entry === undefined ||
      entry.keyId !== input.KeyId ||
      !isDeepStrictEqual(entry.context, input.EncryptionContext)
    ) {
      throw new InvalidCiphertextException({ message: 'InvalidCiphertextException', $metadata: {} });
    }
    return { KeyId: input.KeyId, Plaintext: entry.plaintext };
  });
};

beforeEach(() => {
  kmsMock.reset();
  fakeKms();
});

describe('the KMS key wrapper', () => {
  it('makes a data key with GenerateDataKey: AES_256 under the configured key, context {projectId}', async () => {
    const made = await kmsKeyWrapper(KEY_ID).generate('prj_a');

    const calls = kmsMock.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ID,
      KeySpec: 'AES_256',
      EncryptionContext: { projectId: 'prj_a' },
    });
    expect(made.plaintext.byteLength).toBe(32);
    expect(made.wrapped.byteLength).toBe(184);
  });

  it('unwraps with Decrypt pinned to the configured key, context {projectId}', async () => {
    const wrapper = kmsKeyWrapper(KEY_ID);
    const made = await wrapper.generate('prj_a');

    const plaintext = await wrapper.unwrap('prj_a', made.wrapped);

    const calls = kmsMock.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ID,
      CiphertextBlob: made.wrapped,
      EncryptionContext: { projectId: 'prj_a' },
    });
    expect(Buffer.from(plaintext).equals(made.plaintext)).toBe(true);
  });

  it('refuses a data key of project A for project B, as KMS refuses its context', async () => {
    const wrapper = kmsKeyWrapper(KEY_ID);
    const made = await wrapper.generate('prj_a');

    const refusal = wrapper.unwrap('prj_b', made.wrapped);

    await expect(refusal).rejects.toThrow(DecryptionError);
    await expect(refusal).rejects.toThrow('The data key of project prj_b does not unwrap');
  });

  it('refuses a data key made under another KMS key', async () => {
    const made = await kmsKeyWrapper(OTHER_KEY_ID).generate('prj_a');

    await expect(kmsKeyWrapper(KEY_ID).unwrap('prj_a', made.wrapped)).rejects.toThrow(DecryptionError);
  });

  it('answers KMS throttling as a dependency unavailable (503, retryable)', async () => {
    // Not one of KMS's modelled errors: the SDK raises it as an error of that name.
    kmsMock.on(DecryptCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    await expect(kmsKeyWrapper(KEY_ID).unwrap('prj_a', randomBytes(184))).rejects.toThrow(ServiceUnavailableError);
  });

  it('lets a disabled key fail as it is, an internal error for the log', async () => {
    kmsMock.on(GenerateDataKeyCommand).rejects(new DisabledException({ message: 'key is disabled', $metadata: {} }));

    await expect(kmsKeyWrapper(KEY_ID).generate('prj_a')).rejects.toThrow(DisabledException);
  });

  it('sends no KMS call for a project served within five minutes, and one Decrypt after', async () => {
    const wrapper = kmsKeyWrapper(KEY_ID);
    const { wrapped } = await wrapper.generate('prj_a');
    let now = Date.parse('2026-11-25T12:00:00.000Z');
    const keys = dataKeys(wrapper, { clock: { now: () => new Date(now) } });

    await keys.dataKeyFor('prj_a', wrapped);
    now += DATA_KEY_REUSE_MS - 1;
    await keys.dataKeyFor('prj_a', wrapped);
    const withinFiveMinutes = kmsMock.commandCalls(DecryptCommand).length;
    now += 1;
    await keys.dataKeyFor('prj_a', wrapped);

    expect(withinFiveMinutes).toBe(1);
    expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(2);
  });
});

describe('the KMS client', () => {
  it('sends without the SDK logger middleware, and gives up after three attempts', async () => {
    expect(kms.middlewareStack.identify()).not.toContain('loggerMiddleware - initialize');
    expect(await kms.config.maxAttempts()).toBe(3);
  });
});
