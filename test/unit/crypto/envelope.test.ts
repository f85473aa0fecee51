import { randomBytes } from 'node:crypto';
import { IV_BYTES, sealBytes, TAG_BYTES } from '@lambdas/crypto/aes-gcm';
import {
  additionalData,
  DATA_KEY_CACHE_PROJECTS,
  DATA_KEY_REUSE_MS,
  dataKeys,
  decryptValue,
  decryptWebhookSecret,
  encryptValue,
  encryptWebhookSecret,
  type KeyWrapper,
  type SealedValue,
  VALUE_BINDING,
  type ValueAddress,
  type ValueCopy,
} from '@lambdas/crypto/envelope';
import { localKeyWrapper } from '@lambdas/crypto/local-key-wrapper';
import type { Clock } from '@lambdas/domain/clock';
import { DecryptionError } from '@lambdas/domain/errors';

const address: ValueAddress = {
  projectId: 'prj_0123456789abcdef',
  environment: 'production',
  name: 'API_KEY',
  life: 'Q2xpZmVMaWZl',
  version: 3,
  copy: 'head',
};
const value = 'sk_live_ünïcødé-🔑';

/** The error `act` throws, for its class and message to be asserted. */
const thrown = (act: () => unknown): unknown => {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
};

/** How an error names each copy of a value. */
const COPY_NAMES: Record<ValueCopy, string> = { head: 'the head', version: 'a version', proposal: 'a change request' };

/**
 * Expects `act` to refuse with a DecryptionError that names the item of `at` (its address, copy and
 * life) and never the value or the key.
 */
const expectRefused = (act: () => unknown, at: ValueAddress, key: Uint8Array): void => {
  const error = thrown(act);
  expect(error).toBeInstanceOf(DecryptionError);
  const message = (error as Error).message;
  expect(message).toContain(`${at.projectId}/${at.environment}/${at.name} version ${at.version}`);
  expect(message).toContain(`(${COPY_NAMES[at.copy]}, life ${at.life}`);
  expect(message).not.toContain(value);
  expect(message).not.toContain(Buffer.from(key).toString('hex'));
  expect(message).not.toContain(Buffer.from(key).toString('base64'));
};

/** `sealed` with its ciphertext's bytes replaced, as a writer of the table could. */
const withBytes = (sealed: SealedValue, bytes: Uint8Array): SealedValue => ({
  ciphertext: bytes,
  binding: sealed.binding,
});

describe('additionalData', () => {
  it('binds the binding, the copy, the project, environment, name, life and version, as JSON', () => {
    expect(additionalData(address, VALUE_BINDING).toString('utf8')).toBe(
      '[2,"head","prj_0123456789abcdef","production","API_KEY","Q2xpZmVMaWZl",3]',
    );
    expect(additionalData({ ...address, copy: 'version' }, VALUE_BINDING).toString('utf8')).toBe(
      '[2,"version","prj_0123456789abcdef","production","API_KEY","Q2xpZmVMaWZl",3]',
    );
  });

  it('builds an item without a binding as the service sealed it before: project, environment, name, version', () => {
    const legacy = '["prj_0123456789abcdef","production","API_KEY",3]';

    expect(additionalData(address, undefined).toString('utf8')).toBe(legacy);
    expect(additionalData({ ...address, copy: 'version', life: 'other' }, undefined).toString('utf8')).toBe(legacy);
  });

  it.each([
    ['the copy', { copy: 'version' as const }],
    ['the life', { life: 'Q2xpZmVMaWZm' }],
    ['the version', { version: 2 }],
    ['the project', { projectId: 'prj_fedcba9876543210' }],
    ['the environment', { environment: 'staging' }],
    ['the name', { name: 'API_KEY_2' }],
  ])('differs in %s', (_label, change) => {
    const other = additionalData({ ...address, ...change }, VALUE_BINDING);

    expect(other.equals(additionalData(address, VALUE_BINDING))).toBe(false);
    expect(other.equals(additionalData(address, undefined))).toBe(false);
  });

  it('refuses a binding it does not know, naming the item', () => {
    expectRefused(() => additionalData(address, 3), address, Buffer.alloc(32));
    expect((thrown(() => additionalData(address, 3)) as Error).message).toMatch(/unknown binding 3$/);
  });
});

describe('encryptValue and decryptValue', () => {
  const key = randomBytes(32);

  it('round-trips a value, stored as format 1, a 12-byte IV, the ciphertext and a 16-byte tag, with its binding', () => {
    const sealed = encryptValue(key, address, value);

    expect(sealed.binding).toBe(VALUE_BINDING);
    expect(sealed.ciphertext[0]).toBe(0x01);
    expect(sealed.ciphertext.byteLength).toBe(1 + IV_BYTES + Buffer.byteLength(value, 'utf8') + TAG_BYTES);
    expect(Buffer.from(sealed.ciphertext).includes(Buffer.from(value, 'utf8'))).toBe(false);
    expect(decryptValue(key, address, sealed)).toBe(value);
  });

  it('round-trips the empty value', () => {
    expect(decryptValue(key, address, encryptValue(key, address, ''))).toBe('');
  });

  it('draws a fresh IV for every value, so one value encrypted twice differs', () => {
    const first = Buffer.from(encryptValue(key, address, value).ciphertext);
    const second = Buffer.from(encryptValue(key, address, value).ciphertext);

    expect(first.subarray(1, 1 + IV_BYTES).equals(second.subarray(1, 1 + IV_BYTES))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it.each([
    ['another project', { projectId: 'prj_fedcba9876543210' }],
    ['another environment', { environment: 'staging' }],
    ['another name', { name: 'API_KEY_2' }],
    ['another version', { version: 4 }],
    ['another life of the secret', { life: 'Q2xpZmVMaWZm' }],
    ['the version’s own item (the head’s copy read as a version)', { copy: 'version' as const }],
    [
      'a change request’s proposal (the head’s copy read as one)',
      { copy: 'proposal' as const, life: 'req_1', version: 0 },
    ],
    // The JSON of the address keeps the parts apart: moving text between them is another address.
    ['the same text split differently', { environment: 'productionAPI', name: '_KEY' }],
  ])('refuses a value moved to %s', (_label, change) => {
    const sealed = encryptValue(key, address, value);
    const moved = { ...address, ...change };

    expectRefused(() => decryptValue(key, moved, sealed), moved, key);
  });

  it('refuses a version’s value served as the head at that version or a later one', () => {
    const ofVersion = { ...address, copy: 'version' as const, version: 2 };
    const sealed = encryptValue(key, ofVersion, value);

    expectRefused(() => decryptValue(key, { ...address, version: 2 }, sealed), { ...address, version: 2 }, key);
    expectRefused(() => decryptValue(key, address, sealed), address, key);
  });

  it('refuses a bound value whose binding was removed or changed, as a writer of the table could', () => {
    const sealed = encryptValue(key, address, value);

    expectRefused(() => decryptValue(key, address, { ciphertext: sealed.ciphertext }), address, key);
    expectRefused(() => decryptValue(key, address, { ciphertext: sealed.ciphertext, binding: 1 }), address, key);
  });

  it('opens a value sealed before bindings (an item without one), under its legacy additional data only', () => {
    const legacy = { ciphertext: sealBytes(key, additionalData(address, undefined), Buffer.from(value, 'utf8')) };

    expect(decryptValue(key, address, legacy)).toBe(value);
    expect(decryptValue(key, { ...address, copy: 'version', life: 'any' }, legacy)).toBe(value);
    expect(thrown(() => decryptValue(key, { ...address, version: 4 }, legacy))).toBeInstanceOf(DecryptionError);
    expect((thrown(() => decryptValue(key, { ...address, version: 4 }, legacy)) as Error).message).toContain(
      'sealed before lives were bound',
    );
    expectRefused(() => decryptValue(key, address, { ...legacy, binding: VALUE_BINDING }), address, key);
  });

  it.each([
    ['the IV', 1],
    ['the ciphertext', 1 + IV_BYTES],
    ['the tag', -1],
  ])('refuses a value with a byte of %s flipped', (_label, at) => {
    const sealed = encryptValue(key, address, value);
    const bytes = Buffer.from(sealed.ciphertext);
    const index = at < 0 ? bytes.length + at : at;
    bytes[index] = (bytes[index] ?? 0) ^ 0x01;

    expectRefused(() => decryptValue(key, address, withBytes(sealed, bytes)), address, key);
  });

  it('refuses a value of another format byte', () => {
    const sealed = encryptValue(key, address, value);
    const bytes = Buffer.from(sealed.ciphertext);
    bytes[0] = 0x02;

    expectRefused(() => decryptValue(key, address, withBytes(sealed, bytes)), address, key);
    expect((thrown(() => decryptValue(key, address, withBytes(sealed, bytes))) as Error).message).toMatch(
      /not in sealed format 1/,
    );
  });

  it.each([
    ['an IV and a tag', 1 + IV_BYTES + TAG_BYTES - 1],
    ['a tag', TAG_BYTES - 1],
  ])('refuses a value too short to hold %s as not in the sealed format', (_label, length) => {
    const sealed = encryptValue(key, address, '');
    const bytes = Buffer.from(sealed.ciphertext).subarray(0, length);

    expectRefused(() => decryptValue(key, address, withBytes(sealed, bytes)), address, key);
    expect((thrown(() => decryptValue(key, address, withBytes(sealed, bytes))) as Error).message).toMatch(
      /not in sealed format 1$/,
    );
  });

  it('says in its error which item did not decrypt and why, with GCM’s own refusal as the cause the log prints', () => {
    const sealed = encryptValue(key, address, value);
    const error = thrown(() => decryptValue(key, { ...address, version: 4 }, sealed)) as Error;

    expect(error.message).toBe(
      'The value of prj_0123456789abcdef/production/API_KEY version 4 (the head, life Q2xpZmVMaWZl) does not ' +
        'decrypt: changed, moved from another item, or sealed under another key',
    );
    expect(error.cause).toMatchObject({ message: 'Unsupported state or unable to authenticate data' });
  });

  it('refuses a value encrypted under another key', () => {
    const sealed = encryptValue(randomBytes(32), address, value);

    expectRefused(() => decryptValue(key, address, sealed), address, key);
  });

  it('decrypts a value whose bytes are a view into a larger buffer, as a read may hand them over', () => {
    const sealed = encryptValue(key, address, value);
    const larger = Buffer.concat([Buffer.from('prefix'), sealed.ciphertext, Buffer.from('suffix')]);
    const view = new Uint8Array(larger.buffer, larger.byteOffset + 6, sealed.ciphertext.byteLength);

    expect(decryptValue(key, address, withBytes(sealed, view))).toBe(value);
  });
});

describe('encryptWebhookSecret and decryptWebhookSecret', () => {
  const key = randomBytes(32);
  const secret = 'whsec_ünïcødé-🔑';

  it('round-trips a webhook’s signing secret, sealed so that it does not show', () => {
    const sealed = encryptWebhookSecret(key, 'prj_a', 'wh_1', secret);

    expect(sealed.includes(Buffer.from(secret, 'utf8'))).toBe(false);
    expect(decryptWebhookSecret(key, 'prj_a', 'wh_1', sealed)).toBe(secret);
  });

  it('opens a secret sealed with the additional data stored secrets have, ["webhook-secret", project, webhook]', () => {
    const stored = sealBytes(
      key,
      Buffer.from('["webhook-secret","prj_a","wh_1"]', 'utf8'),
      Buffer.from(secret, 'utf8'),
    );

    expect(decryptWebhookSecret(key, 'prj_a', 'wh_1', stored)).toBe(secret);
  });

  it.each([
    ['another webhook', 'prj_a', 'wh_2'],
    ['another project', 'prj_b', 'wh_1'],
  ])('refuses a secret moved to %s, naming the webhook and never the secret', (_label, projectId, webhookId) => {
    const sealed = encryptWebhookSecret(key, 'prj_a', 'wh_1', secret);

    const error = thrown(() => decryptWebhookSecret(key, projectId, webhookId, sealed));

    expect(error).toBeInstanceOf(DecryptionError);
    expect((error as Error).message).toBe(
      `The signing secret of webhook ${projectId}/${webhookId} does not decrypt: changed, moved from another item, ` +
        'or sealed under another key',
    );
  });

  it('never opens a secret value as a webhook secret, nor a webhook secret as a value', () => {
    const value = encryptValue(key, address, secret);
    const legacy = sealBytes(key, additionalData(address, undefined), Buffer.from(secret, 'utf8'));
    const webhook = encryptWebhookSecret(key, address.projectId, address.name, secret);

    expect(thrown(() => decryptWebhookSecret(key, address.projectId, address.name, value.ciphertext))).toBeInstanceOf(
      DecryptionError,
    );
    expect(thrown(() => decryptWebhookSecret(key, address.projectId, address.name, legacy))).toBeInstanceOf(
      DecryptionError,
    );
    expectRefused(() => decryptValue(key, address, { ciphertext: webhook, binding: VALUE_BINDING }), address, key);
    expectRefused(() => decryptValue(key, address, { ciphertext: webhook }), address, key);
  });
});

/** A key wrapper that counts its calls, over a local wrapping key. */
const countingWrapper = (): KeyWrapper & { generated: string[]; unwrapped: string[] } => {
  const inner = localKeyWrapper();
  const generated: string[] = [];
  const unwrapped: string[] = [];
  return {
    generated,
    unwrapped,
    generate: (projectId) => {
      generated.push(projectId);
      return inner.generate(projectId);
    },
    unwrap: (projectId, wrapped) => {
      unwrapped.push(projectId);
      return inner.unwrap(projectId, wrapped);
    },
  };
};

/** A clock that moves only when told. */
const manualClock = (): Clock & { advance(ms: number): void } => {
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
};

describe('dataKeys', () => {
  it('makes a new key when the project has none, for the caller to store', async () => {
    const wrapper = countingWrapper();
    const keys = dataKeys(wrapper);

    const made = await keys.dataKeyFor('prj_a', undefined);

    expect(made.created).toBe(true);
    expect(made.plaintext.byteLength).toBe(32);
    expect(wrapper.generated).toEqual(['prj_a']);
    expect(Buffer.from(await wrapper.unwrap('prj_a', made.wrapped)).equals(made.plaintext)).toBe(true);
  });

  it('unwraps a stored key once and serves the project from memory for the next five minutes', async () => {
    const wrapper = countingWrapper();
    const clock = manualClock();
    const keys = dataKeys(wrapper, { clock });
    const { wrapped, plaintext } = await wrapper.generate('prj_a');

    const first = await keys.dataKeyFor('prj_a', wrapped);
    clock.advance(DATA_KEY_REUSE_MS - 1);
    const second = await keys.dataKeyFor('prj_a', wrapped);

    expect(wrapper.unwrapped).toEqual(['prj_a']);
    expect(Buffer.from(first.plaintext).equals(plaintext)).toBe(true);
    expect(Buffer.from(second.plaintext).equals(plaintext)).toBe(true);
    expect([first.created, second.created]).toEqual([false, false]);
  });

  it('unwraps again once five minutes have passed since the key was unwrapped, however often it was used', async () => {
    const wrapper = countingWrapper();
    const clock = manualClock();
    const keys = dataKeys(wrapper, { clock });
    const { wrapped } = await wrapper.generate('prj_a');

    await keys.dataKeyFor('prj_a', wrapped);
    for (let minute = 0; minute < 4; minute += 1) {
      clock.advance(60_000);
      await keys.dataKeyFor('prj_a', wrapped);
    }
    clock.advance(60_000);
    await keys.dataKeyFor('prj_a', wrapped);
    await keys.dataKeyFor('prj_a', wrapped);

    expect(wrapper.unwrapped).toEqual(['prj_a', 'prj_a']);
  });

  it('unwraps again when the clock has gone back before the key was unwrapped, so no key outlives five minutes', async () => {
    const wrapper = countingWrapper();
    const clock = manualClock();
    const keys = dataKeys(wrapper, { clock });
    const { wrapped } = await wrapper.generate('prj_a');

    await keys.dataKeyFor('prj_a', wrapped);
    clock.advance(-1);
    await keys.dataKeyFor('prj_a', wrapped);

    expect(wrapper.unwrapped).toEqual(['prj_a', 'prj_a']);
  });

  it('serves a key it made itself from memory too', async () => {
    const wrapper = countingWrapper();
    const keys = dataKeys(wrapper);

    const made = await keys.dataKeyFor('prj_a', undefined);
    const read = await keys.dataKeyFor('prj_a', made.wrapped);

    expect(wrapper.unwrapped).toEqual([]);
    expect(Buffer.from(read.plaintext).equals(made.plaintext)).toBe(true);
  });

  it('never answers a stored key with a key it holds for another wrapped form (a write that lost the race)', async () => {
    const wrapper = countingWrapper();
    const keys = dataKeys(wrapper);
    const stored = await wrapper.generate('prj_a');

    await keys.dataKeyFor('prj_a', undefined); // made, then not stored: another writer stored `stored`
    const read = await keys.dataKeyFor('prj_a', stored.wrapped);

    expect(wrapper.unwrapped).toEqual(['prj_a']);
    expect(Buffer.from(read.plaintext).equals(stored.plaintext)).toBe(true);
  });

  it(`keeps the keys of ${DATA_KEY_CACHE_PROJECTS} projects, the least recently used leaving first`, async () => {
    const wrapper = countingWrapper();
    const keys = dataKeys(wrapper);
    const projects = Array.from({ length: DATA_KEY_CACHE_PROJECTS + 1 }, (_, index) => `prj_${index}`);
    const wrapped = new Map<string, Uint8Array>();
    for (const projectId of projects) wrapped.set(projectId, (await wrapper.generate(projectId)).wrapped);
    const read = (projectId: string) => keys.dataKeyFor(projectId, wrapped.get(projectId));

    for (const projectId of projects.slice(0, DATA_KEY_CACHE_PROJECTS)) await read(projectId);
    await read('prj_0'); // now the most recently used: prj_1 is the least
    await read(`prj_${DATA_KEY_CACHE_PROJECTS}`); // one too many: prj_1 leaves
    wrapper.unwrapped.length = 0;
    await read('prj_0');
    await read('prj_2');
    await read('prj_1');

    expect(wrapper.unwrapped).toEqual(['prj_1']);
  });

  it('refuses a stored key wrapped for another project', async () => {
    const wrapper = countingWrapper();
    const keys = dataKeys(wrapper);
    const { wrapped } = await wrapper.generate('prj_a');

    await expect(keys.dataKeyFor('prj_b', wrapped)).rejects.toThrow(DecryptionError);
  });

  it('refuses a key the wrapper answers that is not 32 bytes', async () => {
    const short: KeyWrapper = {
      generate: async () => ({ plaintext: randomBytes(16), wrapped: randomBytes(40) }),
      unwrap: async () => randomBytes(16),
    };
    const keys = dataKeys(short);

    await expect(keys.dataKeyFor('prj_a', undefined)).rejects.toThrow(/not 32 bytes/);
    await expect(keys.dataKeyFor('prj_a', randomBytes(40))).rejects.toThrow(/not 32 bytes/);
  });
});
