import '../aws-env';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  DecryptCommand,
  DependencyTimeoutException,
  DisabledException,
  GenerateDataKeyCommand,
  IncorrectKeyException,
  InvalidCiphertextException,
  KMSClient,
  KMSInternalException,
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

/** An error as the SDK raises one that KMS's model does not name (throttling, a timeout): an Error of that name. */
const sdkError = (name: string): Error => Object.assign(new Error(name), { name });

/** The error `promise` rejects with, for its class, message and cause to be asserted. */
const rejection = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was thrown');
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

  it('refuses a data key KMS says another key made (IncorrectKeyException), the refusal its cause', async () => {
    const refusedBy = new IncorrectKeyException({ message: 'incorrect key', $metadata: {} });
    kmsMock.on(DecryptCommand).rejects(refusedBy);

    const error = await rejection(kmsKeyWrapper(KEY_ID).unwrap('prj_a', randomBytes(184)));

    expect(error).toBeInstanceOf(DecryptionError);
    expect(error.message).toBe(`The data key of project prj_a does not unwrap under ${KEY_ID}`);
    expect(error.cause).toBe(refusedBy);
  });

  it.each([
    ['KMS throttling', sdkError('ThrottlingException')],
    ['an internal error of KMS', new KMSInternalException({ message: 'internal', $metadata: {} })],
    ['a dependency of KMS timing out', new DependencyTimeoutException({ message: 'timeout', $metadata: {} })],
    ['a request timing out in the SDK', sdkError('TimeoutError')],
    ['a request timing out at KMS', sdkError('RequestTimeout')],
  ])(
    'answers %s as a dependency unavailable (503, retryable), its error the cause the log prints',
    async (_label, outage) => {
      kmsMock.on(GenerateDataKeyCommand).rejects(outage);
      kmsMock.on(DecryptCommand).rejects(outage);
      const wrapper = kmsKeyWrapper(KEY_ID);

      const errors = [
        await rejection(wrapper.generate('prj_a')),
        await rejection(wrapper.unwrap('prj_a', randomBytes(184))),
      ];

      for (const error of errors) {
        expect(error).toBeInstanceOf(ServiceUnavailableError);
        expect(error.cause).toBe(outage);
      }
    },
  );

  it('lets a disabled key fail as it is, an internal error for the log, neither an outage nor a refused key', async () => {
    const disabled = new DisabledException({ message: 'key is disabled', $metadata: {} });
    kmsMock.on(GenerateDataKeyCommand).rejects(disabled);
    kmsMock.on(DecryptCommand).rejects(disabled);
    const wrapper = kmsKeyWrapper(KEY_ID);

    await expect(wrapper.generate('prj_a')).rejects.toBe(disabled);
    await expect(wrapper.unwrap('prj_a', randomBytes(184))).rejects.toBe(disabled);
  });

  it.each([
    ['the key', { CiphertextBlob: randomBytes(184) }],
    ['its wrapped form', { Plaintext: randomBytes(32) }],
    ['either', {}],
  ])('refuses an answer of GenerateDataKey without %s, naming the project', async (_label, answer) => {
    kmsMock.on(GenerateDataKeyCommand).resolves(answer);

    await expect(kmsKeyWrapper(KEY_ID).generate('prj_a')).rejects.toThrow(
      'KMS answered GenerateDataKey for project prj_a without a key',
    );
  });

  it('refuses an answer of Decrypt without the key, naming the project', async () => {
    kmsMock.on(DecryptCommand).resolves({ KeyId: KEY_ID });

    await expect(kmsKeyWrapper(KEY_ID).unwrap('prj_a', randomBytes(184))).rejects.toThrow(
      'KMS answered Decrypt for project prj_a without a key',
    );
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
