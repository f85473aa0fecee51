import fs, {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The error `act` throws, for its message and cause to be asserted. */
const thrown = (act: () => unknown): Error => {
  try {
    act();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was thrown');
};

/** How many files this process holds open. */
const openFiles = (): number => readdirSync('/dev/fd').length;

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

  it('refuses a key file that is a folder, and one in a folder that does not exist, naming the file and the code', () => {
    const missing = join(dir, 'nowhere', 'wrapping.key');

    expect(() => localKeyWrapper(dir)).toThrow(`The local wrapping key file ${dir}`);
    const error = thrown(() => localKeyWrapper(missing));
    expect(error.message).toBe(`The local wrapping key file ${missing} cannot be made or read (ENOENT).`);
    expect(error.cause).toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a key file that is no regular file, even one of mode 0600, naming the file', () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    chmodSync(folder, 0o600);

    expect(() => localKeyWrapper(folder)).toThrow(
      `The local wrapping key file ${folder} is not a regular file, not a 32-byte key.`,
    );
  });

  it('wraps under the key its file holds: what one key file’s key wrapped does not unwrap under another’s', async () => {
    const other = join(dir, 'other.key');
    writeFileSync(file, Buffer.alloc(32, 7), { mode: 0o600 });
    writeFileSync(other, Buffer.alloc(32, 8), { mode: 0o600 });
    const made = await localKeyWrapper(file).generate('prj_a');

    await expect(localKeyWrapper(other).unwrap('prj_a', made.wrapped)).rejects.toThrow(DecryptionError);
    expect(Buffer.from(await localKeyWrapper(file).unwrap('prj_a', made.wrapped)).equals(made.plaintext)).toBe(true);
  });

  it('leaves no file open, whether it makes the key file, reads it or refuses it', () => {
    const before = openFiles();

    localKeyWrapper(file);
    localKeyWrapper(file);
    chmodSync(file, 0o644);
    expect(() => localKeyWrapper(file)).toThrow('has mode 0644');

    expect(openFiles()).toBe(before);
  });

  it('refuses a key file it cannot link in place (a file system without hard links), naming the code, its draft removed', () => {
    const refusal = Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    jest.spyOn(fs, 'linkSync').mockImplementation(() => {
      throw refusal;
    });

    const error = thrown(() => localKeyWrapper(file));

    expect(error.message).toBe(`The local wrapping key file ${file} cannot be made or read (EPERM).`);
    expect(error.cause).toBe(refusal);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes the key of a process that made the file at the same moment, never overwriting it', async () => {
    const link = fs.linkSync;
    const theirs = Buffer.alloc(32, 9);
    jest.spyOn(fs, 'linkSync').mockImplementationOnce((draft, target) => {
      writeFileSync(target, theirs, { mode: 0o600 }); // the other process links its key first
      link(draft, target);
    });

    const made = await localKeyWrapper(file).generate('prj_a');

    expect(readFileSync(file).equals(theirs)).toBe(true);
    expect(readdirSync(dir)).toEqual(['wrapping.key']);
    expect(Buffer.from(await localKeyWrapper(file).unwrap('prj_a', made.wrapped)).equals(made.plaintext)).toBe(true);
  });
});
