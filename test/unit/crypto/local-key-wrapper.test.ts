import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localKeyWrapper } from '@lambdas/crypto/local-key-wrapper';
import { DecryptionError } from '@lambdas/domain/errors';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wrapping-key-'));
  file = join(dir, 'wrapping.key');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the local key wrapper', () => {
  it('makes its key file with mode 0600, holding a 32-byte key and nothing beside it', () => {
    localKeyWrapper(file);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file)).toHaveLength(32);
    expect(readdirSync(dir)).toEqual(['wrapping.key']);
  });

  it('unwraps after a restart what it wrapped before, with the key kept in the file', async () => {
    const before = localKeyWrapper(file);
    const made = await before.generate('prj_a');
    const kept = readFileSync(file);

    const after = localKeyWrapper(file);

    expect(Buffer.from(await after.unwrap('prj_a', made.wrapped)).equals(made.plaintext)).toBe(true);
    expect(readFileSync(file).equals(kept)).toBe(true);
  });

  it('wraps under a random key without a file: another process cannot unwrap it', async () => {
    const made = await localKeyWrapper().generate('prj_a');

    await expect(localKeyWrapper().unwrap('prj_a', made.wrapped)).rejects.toThrow(DecryptionError);
  });

  it.each([
    ['a random key', () => localKeyWrapper()],
    ['a kept key', () => localKeyWrapper(file)],
  ])('refuses a data key of project A for project B, under %s', async (_label, make) => {
    const wrapper = make();
    const made = await wrapper.generate('prj_a');

    const refusal = wrapper.unwrap('prj_b', made.wrapped);

    await expect(refusal).rejects.toThrow(DecryptionError);
    await expect(refusal).rejects.toThrow('The data key of project prj_b does not decrypt');
  });

  it('makes a new 32-byte data key each time, wrapped so that the wrapped form does not hold it', async () => {
    const wrapper = localKeyWrapper(file);

    const first = await wrapper.generate('prj_a');
    const second = await wrapper.generate('prj_a');

    expect(first.plaintext.byteLength).toBe(32);
    expect(Buffer.from(first.plaintext).equals(second.plaintext)).toBe(false);
    expect(Buffer.from(first.wrapped).includes(Buffer.from(first.plaintext))).toBe(false);
  });

  it.each([
    ['0644', 0o644],
    ['0640', 0o640],
    ['0604', 0o604],
    ['0700', 0o700],
  ])('refuses a key file of mode %s, naming the file', (shown, mode) => {
    writeFileSync(file, Buffer.alloc(32, 7));
    chmodSync(file, mode);

    expect(() => localKeyWrapper(file)).toThrow(`The local wrapping key file ${file} has mode ${shown}`);
  });

  it.each([0, 31, 33])('refuses a key file of %s bytes, naming the file', (size) => {
    writeFileSync(file, Buffer.alloc(size, 7), { mode: 0o600 });

    expect(() => localKeyWrapper(file)).toThrow(`The local wrapping key file ${file} holds ${size} bytes`);
  });

  it('accepts a key file its owner may only read (mode 0400)', async () => {
    writeFileSync(file, Buffer.alloc(32, 7), { mode: 0o400 });

    const made = await localKeyWrapper(file).generate('prj_a');

    expect(made.plaintext.byteLength).toBe(32);
  });

  it('refuses a key file that is a folder, and one in a folder that does not exist, naming the file', () => {
    const missing = join(dir, 'nowhere', 'wrapping.key');

    expect(() => localKeyWrapper(dir)).toThrow(`The local wrapping key file ${dir}`);
    expect(() => localKeyWrapper(missing)).toThrow(`The local wrapping key file ${missing} cannot be made or read`);
  });
});
