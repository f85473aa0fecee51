import { noneMatchHolds, secretsTag } from '@lambdas/domain/entity-tag';

const environment = {
  projectId: 'prj_AAAAAAAAAAAAAAAA',
  name: 'production',
  life: 'life-one',
  createdAt: '2026-11-01T00:00:00.000Z',
  secretsRevision: 4,
};

/** Environments an export's references reach, by `placeKey`, as read for its tag. */
const staging = { life: 'life-s', createdAt: '2026-11-03T00:00:00.000Z', secretsRevision: 7 };
const shared = { life: 'life-c', createdAt: '2026-11-04T00:00:00.000Z', secretsRevision: 2 };
const exportTag = (referenced: [string, typeof staging | undefined][]) =>
  secretsTag('export', environment, undefined, new Map(referenced));

describe('secretsTag', () => {
  it('is a quoted opaque tag, the same while nothing that decides the answer changes', () => {
    const tag = secretsTag('list', environment);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(secretsTag('list', { ...environment })).toBe(tag);
  });

  it('holds none of what it is made of', () => {
    const tag = secretsTag('export', environment);
    for (const part of [environment.projectId, environment.name, environment.life, 'export']) {
      expect(tag).not.toContain(part);
    }
  });

  it.each([
    ['another revision', { secretsRevision: 5 }],
    ['another project', { projectId: 'prj_BBBBBBBBBBBBBBBB' }],
    ['another environment', { name: 'staging' }],
    ['another life (made again)', { life: 'life-two' }],
    ['another creation time', { createdAt: '2026-11-02T00:00:00.000Z' }],
  ])('changes with %s', (_case, change) => {
    expect(secretsTag('list', { ...environment, ...change })).not.toBe(secretsTag('list', environment));
  });

  it('counts an environment never written since revisions existed as revision 0, which its first write moves', () => {
    const { secretsRevision: _none, ...before } = environment;
    expect(secretsTag('list', before)).toBe(secretsTag('list', { ...environment, secretsRevision: 0 }));
    expect(secretsTag('list', before)).not.toBe(secretsTag('list', { ...environment, secretsRevision: 1 }));
  });

  it('differs between the list, the deleted list and the export, and with how many deleted are listed', () => {
    const tags = [
      secretsTag('list', environment),
      secretsTag('export', environment),
      secretsTag('deleted', environment, 2),
      secretsTag('deleted', environment, 1),
    ];
    expect(new Set(tags).size).toBe(tags.length);
  });
});

describe('secretsTag of an export that references other environments', () => {
  const reached: [string, typeof staging | undefined][] = [
    ['prj_AAAAAAAAAAAAAAAA/staging', staging],
    ['prj_CCCCCCCCCCCCCCCC/common', shared],
    ['prj_AAAAAAAAAAAAAAAA/gone', undefined],
  ];

  it('is the tag of the environment alone when its values reach no other environment', () => {
    expect(exportTag([])).toBe(secretsTag('export', environment));
  });

  it('changes with an environment reached, and with one reached that does not exist', () => {
    const tags = [exportTag([]), exportTag(reached.slice(0, 1)), exportTag(reached.slice(0, 2)), exportTag(reached)];
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('is the same whatever order the environments were reached in', () => {
    const tag = exportTag(reached);
    expect(exportTag([...reached].reverse())).toBe(tag);
    expect(exportTag([...reached.slice(1), ...reached.slice(0, 1)])).toBe(tag);
  });

  it.each([
    ['another revision', { secretsRevision: 8 }],
    ['another life (deleted and made again)', { life: 'life-t' }],
    ['another creation time', { createdAt: '2026-11-05T00:00:00.000Z' }],
  ])('changes when a reached environment has %s', (_case, change) => {
    const changed: typeof reached = [['prj_AAAAAAAAAAAAAAAA/staging', { ...staging, ...change }], ...reached.slice(1)];
    expect(exportTag(changed)).not.toBe(exportTag(reached));
  });

  it('changes when a reached environment that did not exist is made', () => {
    const made: typeof reached = [...reached.slice(0, 2), ['prj_AAAAAAAAAAAAAAAA/gone', staging]];
    expect(exportTag(made)).not.toBe(exportTag(reached));
  });
});

describe('noneMatchHolds', () => {
  const tag = '"abc"';

  it.each([
    ['the tag', '"abc"'],
    ['the tag, weak', 'W/"abc"'],
    ['a list holding it', '"x", "abc"'],
    ['a list holding it weak', '"x",W/"abc"'],
    ['any (*)', '*'],
    ['a list holding any (*)', '"x", *'],
  ])('holds for %s', (_case, header) => {
    expect(noneMatchHolds(header, tag)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another tag', '"abd"'],
    ['another tag that holds W/ inside', '"aW/bc"'],
    ['the tag unquoted', 'abc'],
    ['an empty header', ''],
  ])('does not hold for %s', (_case, header) => {
    expect(noneMatchHolds(header, tag)).toBe(false);
  });
});
