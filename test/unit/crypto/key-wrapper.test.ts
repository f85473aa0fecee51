import '../aws-env';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { KeyWrapper } from '@lambdas/crypto/envelope';
import { chooseKeyWrapper } from '@lambdas/crypto/key-wrapper';
import { mockClient } from 'aws-sdk-client-mock';

const KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const kmsMock = mockClient(KMSClient);

let dir: string;
let file: string;

beforeEach(() => {
  kmsMock.reset();
  kmsMock.on(GenerateDataKeyCommand).resolves({ Plaintext: new Uint8Array(32), CiphertextBlob: new Uint8Array(184) });
  dir = mkdtempSync(join(tmpdir(), 'key-wrapper-'));
  file = join(dir, 'wrapping.key');
});

const CHOICE_VARIABLES = ['SECRETS_KEY_ID', 'LOCAL_WRAPPING_KEY_FILE', 'AWS_LAMBDA_FUNCTION_NAME'] as const;
const savedEnv = Object.fromEntries(CHOICE_VARIABLES.map((name) => [name, process.env[name]]));

/** Sets this process's variables that choose the wrapper, each left out unless given. */
const setChoiceEnv = (env: Partial<Record<(typeof CHOICE_VARIABLES)[number], string>>): void => {
  for (const name of CHOICE_VARIABLES) {
    const value = env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
};

/** `keyWrapper` of a freshly loaded module, as a new process has it: nothing chosen yet. */
const freshKeyWrapper = async (): Promise<KeyWrapper> => {
  let loaded: KeyWrapper | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = ((await import('@lambdas/crypto/key-wrapper')) as typeof import('@lambdas/crypto/key-wrapper')).keyWrapper;
  });
  if (loaded === undefined) throw new Error('the module did not load');
  return loaded;
};

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  setChoiceEnv(savedEnv);
});

describe('chooseKeyWrapper', () => {
  it('wraps and unwraps with KMS under SECRETS_KEY_ID when it is set, even beside a local key file', async () => {
    const plaintext = new Uint8Array(32).fill(9);
    kmsMock.on(DecryptCommand).resolves({ Plaintext: plaintext });
    const wrapper = chooseKeyWrapper({ SECRETS_KEY_ID: KEY_ID, LOCAL_WRAPPING_KEY_FILE: file });

    await wrapper.generate('prj_a');
    const unwrapped = await wrapper.unwrap('prj_a', new Uint8Array(184));

    expect(kmsMock.commandCalls(GenerateDataKeyCommand)[0]?.args[0].input.KeyId).toBe(KEY_ID);
    expect(kmsMock.commandCalls(DecryptCommand)[0]?.args[0].input.KeyId).toBe(KEY_ID);
    expect(unwrapped).toEqual(plaintext);
    expect(existsSync(file)).toBe(false);
  });

  it('wraps locally under the key kept in LOCAL_WRAPPING_KEY_FILE without SECRETS_KEY_ID', async () => {
    const wrapper = chooseKeyWrapper({ LOCAL_WRAPPING_KEY_FILE: file });
    const made = await wrapper.generate('prj_a');

    const restarted = chooseKeyWrapper({ LOCAL_WRAPPING_KEY_FILE: file });

    expect(existsSync(file)).toBe(true);
    expect(Buffer.from(await restarted.unwrap('prj_a', made.wrapped)).equals(made.plaintext)).toBe(true);
    expect(kmsMock.calls()).toHaveLength(0);
  });

  it('wraps locally under a random key with neither set, or both empty', async () => {
    for (const env of [{}, { SECRETS_KEY_ID: '', LOCAL_WRAPPING_KEY_FILE: '' }]) {
      const made = await chooseKeyWrapper(env).generate('prj_a');

      await expect(chooseKeyWrapper(env).unwrap('prj_a', made.wrapped)).rejects.toThrow();
    }
    expect(kmsMock.calls()).toHaveLength(0);
  });

  it('refuses to start inside Lambda without SECRETS_KEY_ID, naming it', () => {
    expect(() => chooseKeyWrapper({ AWS_LAMBDA_FUNCTION_NAME: 'read-secret', LOCAL_WRAPPING_KEY_FILE: file })).toThrow(
      'Environment variable SECRETS_KEY_ID must be set',
    );
    expect(existsSync(file)).toBe(false);
    expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('loads the KMS client with the first key it needs, so a function that needs none never loads it', async () => {
    let loaded = 0;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('@lambdas/crypto/kms-key-wrapper', () => {
        loaded += 1;
        const key = { plaintext: new Uint8Array(32), wrapped: new Uint8Array(8) };
        return { kmsKeyWrapper: () => ({ generate: async () => key, unwrap: async () => key.plaintext }) };
      });
      const isolated = (await import('@lambdas/crypto/key-wrapper')) as typeof import('@lambdas/crypto/key-wrapper');
      const wrapper = isolated.chooseKeyWrapper({ SECRETS_KEY_ID: KEY_ID });
      expect(loaded).toBe(0);
      await wrapper.generate('prj_a');
      await wrapper.generate('prj_b');
      expect(loaded).toBe(1);
    });
  });
});

describe('keyWrapper', () => {
  it('chooses from the environment when a key is first needed, not when loaded, and keeps that choice for the process', async () => {
    setChoiceEnv({ LOCAL_WRAPPING_KEY_FILE: file });
    const wrapper = await freshKeyWrapper();
    expect(existsSync(file)).toBe(false);

    const made = await wrapper.generate('prj_a');
    expect(existsSync(file)).toBe(true);
    // A choice made again now would be a random key, under which `made` does not unwrap.
    setChoiceEnv({});
    const unwrapped = await wrapper.unwrap('prj_a', made.wrapped);

    expect(Buffer.from(unwrapped).equals(made.plaintext)).toBe(true);
    expect(kmsMock.calls()).toHaveLength(0);
  });

  it('loads inside Lambda without SECRETS_KEY_ID, and fails each call that needs a key, naming the variable', async () => {
    setChoiceEnv({ AWS_LAMBDA_FUNCTION_NAME: 'read-secret' });
    const wrapper = await freshKeyWrapper();

    await expect(async () => wrapper.generate('prj_a')).rejects.toThrow(
      'Environment variable SECRETS_KEY_ID must be set',
    );
    await expect(async () => wrapper.unwrap('prj_a', new Uint8Array(184))).rejects.toThrow(
      'Environment variable SECRETS_KEY_ID must be set',
    );
  });
});
