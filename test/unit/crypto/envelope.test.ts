import { randomBytes } from 'node:crypto';
import { IV_BYTES, TAG_BYTES } from '@lambdas/crypto/aes-gcm';
import {
  DATA_KEY_CACHE_PROJECTS,
  DATA_KEY_REUSE_MS,
  dataKeys,
  decryptValue,
  encryptValue,
  type KeyWrapper,
  type ValueAddress,
} from '@lambdas/crypto/envelope';
import { localKeyWrapper } from '@lambdas/crypto/local-key-wrapper';
import type { Clock } from '@lambdas/domain/clock';
import { DecryptionError } from '@lambdas/domain/errors';

const address: ValueAddress = {
  projectId: 'prj_0123456789abcdef',
  environment: 'production',
  name: 'API_KEY',
  version: 3,
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

/** Expects `act` to refuse with a DecryptionError that names the item of `at` and never the value or the key. */
const expectRefused = (act: () => unknown, at: ValueAddress, key: Uint8Array): void => {
  const error = thrown(act);
  expect(error).toBeInstanceOf(DecryptionError);
  const message = (error as Error).message;
  expect(message).toContain(`${at.projectId}/${at.environment}/${at.name} version ${at.version}`);
  expect(message).not.toContain(value);
  expect(message).not.toContain(Buffer.from(key).toString('hex'));
  expect(message).not.toContain(Buffer.from(key).toString('base64'));
};

describe('encryptValue and decryptValue', () => {
  const key = randomBytes(32);

  it('round-trips a value, stored as format 1, a 12-byte IV, the ciphertext and a 16-byte tag', () => {
    const sealed = encryptValue(key, address, value);

    expect(sealed[0]).toBe(0x01);
    expect(sealed.byteLength).toBe(1 + IV_BYTES + Buffer.byteLength(value, 'utf8') + TAG_BYTES);
    expect(Buffer.from(sealed).includes(Buffer.from(value, 'utf8'))).toBe(false);
    expect(decryptValue(key, address, sealed)).toBe(value);
  });

  it('round-trips the empty value', () => {
    expect(decryptValue(key, address, encryptValue(key, address, ''))).toBe('');
  });

  it('draws a fresh IV for every value, so one value encrypted twice differs', () => {
    const first = Buffer.from(encryptValue(key, address, value));
    const second = Buffer.from(encryptValue(key, address, value));

    expect(first.subarray(1, 1 + IV_BYTES).equals(second.subarray(1, 1 + IV_BYTES))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it.each([
    ['another project', { projectId: 'prj_fedcba9876543210' }],
    ['another environment', { environment: 'staging' }],
    ['another name', { name: 'API_KEY_2' }],
    ['another version', { version: 4 }],
    // The JSON of the address keeps the parts apart: moving text between them is another address.
    ['the same text split differently', { environment: 'productionAPI', name: '_KEY' }],
  ])('refuses a value moved to %s', (_label, change) => {
    const sealed = encryptValue(key, address, value);
    const moved = { ...address, ...change };

    expectRefused(() => decryptValue(key, moved, sealed), moved, key);
  });

  it.each([
    ['the IV', 1],
    ['the ciphertext', 1 + IV_BYTES],
    ['the tag', -1],
  ])('refuses a value with a byte of %s flipped', (_label, at) => {
    const sealed = Buffer.from(encryptValue(key, address, value));
    const index = at < 0 ? sealed.length + at : at;
    sealed[index] = (sealed[index] ?? 0) ^ 0x01;

    expectRefused(() => decryptValue(key, address, sealed), address, key);
  });

  it('refuses a value of another format byte', () => {
    const sealed = Buffer.from(encryptValue(key, address, value));
    sealed[0] = 0x02;

    expectRefused(() => decryptValue(key, address, sealed), address, key);
    expect((thrown(() => decryptValue(key, address, sealed)) as Error).message).toMatch(/not in sealed format 1/);
  });

  it('refuses a value too short to hold an IV and a tag', () => {
    const sealed = Buffer.from(encryptValue(key, address, '')).subarray(0, 1 + IV_BYTES + TAG_BYTES - 1);

    expectRefused(() => decryptValue(key, address, sealed), address, key);
  });

  it('refuses a value encrypted under another key', () => {
    const sealed = encryptValue(randomBytes(32), address, value);

    expectRefused(() => decryptValue(key, address, sealed), address, key);
  });

  it('decrypts a value whose bytes are a view into a larger buffer, as a read may hand them over', () => {
    const sealed = encryptValue(key, address, value);
    const larger = Buffer.concat([Buffer.from('prefix'), sealed, Buffer.from('suffix')]);
    const view = new Uint8Array(larger.buffer, larger.byteOffset + 6, sealed.byteLength);

    expect(decryptValue(key, address, view)).toBe(value);
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
    expect(second.created).toBe(false);
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
