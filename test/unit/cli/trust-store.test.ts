import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandError } from '../../../cli/errors';
import { recordTrust, revokeTrust, sha256, trustOf, trustStoreFile } from '../../../cli/trust-store';

let config: string;
let store: string;
beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'cli-trust-'));
  store = trustStoreFile({ XDG_CONFIG_HOME: config });
});
afterEach(() => {
  rmSync(config, { recursive: true, force: true });
});

const FILE = Buffer.from('{"project":"prj_0123456789abcdefABCDEF","environment":"production"}\n');
const target = { project: 'prj_0123456789abcdefABCDEF', environment: 'production' };

describe('trustStoreFile (where the person’s trusted folders are kept)', () => {
  it('is secrets/trusted.json under XDG_CONFIG_HOME', () => {
    expect(trustStoreFile({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/ana' })).toBe('/x/config/secrets/trusted.json');
  });

  it('is ~/.config/secrets/trusted.json without XDG_CONFIG_HOME, or with a relative one (which XDG says to ignore)', () => {
    expect(trustStoreFile({ HOME: '/home/ana' })).toBe('/home/ana/.config/secrets/trusted.json');
    expect(trustStoreFile({ HOME: '/home/ana', XDG_CONFIG_HOME: '' })).toBe('/home/ana/.config/secrets/trusted.json');
    expect(trustStoreFile({ HOME: '/home/ana', XDG_CONFIG_HOME: 'config' })).toBe(
      '/home/ana/.config/secrets/trusted.json',
    );
  });
});

describe('the trust store', () => {
  it('trusts nothing before anything is recorded, and has written nothing', () => {
    expect(trustOf(store, '/work/acme', sha256(FILE))).toBe('untrusted');
    expect(readdirSync(config)).toEqual([]);
  });

  it('trusts a recorded folder’s file while its bytes are those recorded, and says when they changed', () => {
    recordTrust(store, '/work/acme', { sha256: sha256(FILE), ...target });
    expect(trustOf(store, '/work/acme', sha256(FILE))).toBe('trusted');
    expect(trustOf(store, '/work/acme', sha256(Buffer.concat([FILE, Buffer.from(' ')])))).toBe('changed');
    expect(trustOf(store, '/work/acme/sub', sha256(FILE))).toBe('untrusted');
    expect(trustOf(store, '/work', sha256(FILE))).toBe('untrusted');
  });

  it('keeps the folder, the sha256 of the file’s bytes and its target', () => {
    recordTrust(store, '/work/acme', { sha256: sha256(FILE), ...target });
    const kept = JSON.parse(readFileSync(store, 'utf8'));
    expect(kept).toEqual({
      folders: {
        '/work/acme': {
          sha256: createHash('sha256').update(FILE).digest('hex'),
          project: target.project,
          environment: target.environment,
          trustedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    });
  });

  it('writes the file readable by its owner only (0600) in a folder of the owner only (0700), leaving no temporary file', () => {
    mkdirSync(join(config, 'secrets'));
    chmodSync(join(config, 'secrets'), 0o755);
    recordTrust(store, '/work/acme', { sha256: sha256(FILE), ...target });
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'secrets')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(config, 'secrets'))).toEqual(['trusted.json']);
  });

  it('keeps the other folders’ entries when it records, replaces, and revokes one', () => {
    recordTrust(store, '/work/acme', { sha256: sha256(FILE), ...target });
    recordTrust(store, '/work/other', { sha256: sha256(FILE), ...target });
    const changed = Buffer.from('{"project":"prj_0123456789abcdefABCDEF","environment":"staging"}\n');
    recordTrust(store, '/work/acme', { sha256: sha256(changed), ...target, environment: 'staging' });
    expect(trustOf(store, '/work/acme', sha256(changed))).toBe('trusted');
    expect(trustOf(store, '/work/acme', sha256(FILE))).toBe('changed');
    expect(revokeTrust(store, '/work/acme')).toBe(true);
    expect(trustOf(store, '/work/acme', sha256(changed))).toBe('untrusted');
    expect(trustOf(store, '/work/other', sha256(FILE))).toBe('trusted');
  });

  it('answers false when revoking a folder it does not trust', () => {
    expect(revokeTrust(store, '/work/acme')).toBe(false);
  });

  it.each([
    ['not JSON', 'not json'],
    ['JSON of another shape', '[]'],
  ])('refuses a store that is %s, naming it, and does not overwrite it', (_case, content) => {
    mkdirSync(join(config, 'secrets'));
    writeFileSync(store, content);
    const refused = new CommandError(
      `${store} is not a list of trusted folders: fix it, or remove it and trust your folders again`,
    );
    expect(() => trustOf(store, '/work/acme', sha256(FILE))).toThrow(refused);
    expect(() => recordTrust(store, '/work/acme', { sha256: sha256(FILE), ...target })).toThrow(refused);
    expect(readFileSync(store, 'utf8')).toBe(content);
  });
});
