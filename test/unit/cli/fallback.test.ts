import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandError, UsageError } from '../../../cli/errors';
import { fallbackKey, readSnapshot, type SnapshotSource, writeSnapshot } from '../../../cli/fallback';

// scryptSync as it is, watched: which parameters the key is derived with.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, scryptSync: jest.fn(actual.scryptSync) };
});

const PASSPHRASE = 'correct horse battery staple';
const SOURCE: SnapshotSource = {
  api: 'https://api.example.com/prod',
  projectId: 'prj_0123456789abcdef',
  environment: 'development',
};
const DAY = 24 * 60 * 60 * 1000;

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'cli-fallback-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('the fallback snapshot', () => {
  it('stands in only for the API, project and environment it was read from', () => {
    const file = join(folder, 'snapshot');
    writeSnapshot(file, { A: 'a' }, PASSPHRASE, SOURCE);
    expect(readSnapshot(file, PASSPHRASE, DAY, SOURCE).values).toEqual({ A: 'a' });
    for (const other of [
      { ...SOURCE, environment: 'production' },
      { ...SOURCE, projectId: 'prj_fedcba9876543210' },
      { ...SOURCE, api: 'https://other.example.com/prod' },
    ]) {
      expect(() => readSnapshot(file, PASSPHRASE, DAY, other)).toThrow(
        new CommandError(
          `the fallback snapshot at ${file} is of project prj_0123456789abcdef / development at https://api.example.com/prod, not of project ${other.projectId} / ${other.environment} at ${other.api}: it is not used`,
        ),
      );
    }
  });

  it('refuses a snapshot whose recorded source was edited, as the source is authenticated with the values', () => {
    const file = join(folder, 'snapshot');
    writeSnapshot(file, { A: 'a' }, PASSPHRASE, SOURCE);
    const edited = JSON.parse(readFileSync(file, 'utf8'));
    edited.source.environment = 'production';
    writeFileSync(file, JSON.stringify(edited));
    expect(() => readSnapshot(file, PASSPHRASE, DAY, { ...SOURCE, environment: 'production' })).toThrow(
      /cannot be opened/,
    );
  });

  it('refuses a truncated tag, which GCM would otherwise check on its first bytes only', () => {
    const file = join(folder, 'snapshot');
    writeSnapshot(file, { A: 'a' }, PASSPHRASE, SOURCE);
    const truncated = JSON.parse(readFileSync(file, 'utf8'));
    truncated.tag = Buffer.from(truncated.tag, 'base64').subarray(0, 4).toString('base64');
    writeFileSync(file, JSON.stringify(truncated));
    expect(() => readSnapshot(file, PASSPHRASE, DAY, SOURCE)).toThrow(/cannot be opened/);
  });

  it('refuses a snapshot of the earlier format, which does not say where it came from', () => {
    const file = join(folder, 'snapshot');
    const old = {
      format: 'secrets-fallback-v1',
      createdAt: new Date().toISOString(),
      salt: '',
      iv: '',
      tag: '',
      data: '',
    };
    writeFileSync(file, JSON.stringify(old));
    expect(() => readSnapshot(file, PASSPHRASE, DAY, SOURCE)).toThrow(
      `${file} is a fallback snapshot of an earlier format, which does not record the API, project and environment it came from: it is not used (the next run that reaches the API replaces it)`,
    );
  });

  it('derives its key with scrypt at N=2^17, r=8, p=1', () => {
    writeSnapshot(join(folder, 'snapshot'), { A: 'a' }, PASSPHRASE, SOURCE);
    expect(scryptSync).toHaveBeenCalledWith(
      PASSPHRASE,
      expect.any(Buffer),
      32,
      expect.objectContaining({ N: 2 ** 17, r: 8, p: 1 }),
    );
  });

  it('writes through a new file of its own, mode 0600, never through a link planted beside it', () => {
    const file = join(folder, 'snapshot');
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    writeSnapshot(file, { A: 'a' }, PASSPHRASE, SOURCE);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).sort()).toEqual(['snapshot', `snapshot.${process.pid}.tmp`, 'victim']);
  });
});

describe('fallbackKey', () => {
  it('needs a passphrase of at least 16 characters', () => {
    expect(() => fallbackKey({ SECRETS_FALLBACK_PASSPHRASE: 'fifteen chars..' })).toThrow(UsageError);
    expect(fallbackKey({ SECRETS_FALLBACK_PASSPHRASE: 'sixteen chars...' })).toBe('sixteen chars...');
    expect(() => fallbackKey({})).toThrow(
      new UsageError('--fallback needs SECRETS_FALLBACK_PASSPHRASE or SECRETS_FALLBACK_KEY_FILE'),
    );
  });

  it('takes a key file of at least 32 bytes instead', () => {
    const keyFile = join(folder, 'key');
    writeFileSync(keyFile, randomBytes(32));
    expect(fallbackKey({ SECRETS_FALLBACK_KEY_FILE: keyFile, SECRETS_FALLBACK_PASSPHRASE: 'short' })).toEqual(
      readFileSync(keyFile),
    );
    writeFileSync(keyFile, randomBytes(31));
    expect(() => fallbackKey({ SECRETS_FALLBACK_KEY_FILE: keyFile })).toThrow(UsageError);
  });
});
