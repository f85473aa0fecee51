import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMount, mountFormatOf } from '../../../cli/mount';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'mount-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('mountFormatOf', () => {
  it('reads json and yaml from the extension, and dotenv from any other', () => {
    expect(['a.json', 'a.YAML', 'a.yml', 'a.env', 'secrets'].map(mountFormatOf)).toEqual([
      'json',
      'yaml',
      'yaml',
      'dotenv',
      'dotenv',
    ]);
  });
});

describe('createMount', () => {
  it('creates the file 0600, updates it through a renamed new file, and removes it', () => {
    const path = join(folder, 'secrets.json');
    const mount = createMount(path, 'json');
    mount.write({ A: 'one' });
    const created = lstatSync(path);
    expect(created.mode & 0o777).toBe(0o600);
    mount.write({ A: 'two' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ A: 'two' });
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(lstatSync(path).ino).not.toBe(created.ino);
    expect(readdirSync(folder)).toEqual(['secrets.json']);
    mount.remove();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses a file or a link already at the path, and changes neither', () => {
    const file = join(folder, 'existing.env');
    writeFileSync(file, 'KEEP=1\n');
    const link = join(folder, 'link.env');
    symlinkSync(file, link);
    for (const path of [file, link]) {
      expect(() => createMount(path, 'dotenv').write({ A: 'x' })).toThrow(
        `cannot create the mount file ${path}: something is already there`,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe('KEEP=1\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('neither updates nor removes a file that replaced its own', () => {
    const path = join(folder, 'secrets.env');
    const mount = createMount(path, 'dotenv');
    mount.write({ A: 'one' });
    const other = join(folder, 'other.env');
    writeFileSync(other, 'OTHER=1\n');
    renameSync(other, path);
    expect(() => mount.write({ A: 'two' })).toThrow('was replaced or removed by someone else');
    mount.remove();
    expect(readFileSync(path, 'utf8')).toBe('OTHER=1\n');
  });
});
