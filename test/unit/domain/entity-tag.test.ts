import { noneMatchHolds, secretsTag } from '@lambdas/domain/entity-tag';

const environment = {
  projectId: 'prj_AAAAAAAAAAAAAAAA',
  name: 'production',
  life: 'life-one',
  createdAt: '2026-11-01T00:00:00.000Z',
  secretsRevision: 4,
};

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

describe('noneMatchHolds', () => {
  const tag = '"abc"';

  it.each([
    ['the tag', '"abc"'],
    ['the tag, weak', 'W/"abc"'],
    ['a list holding it', '"x", "abc"'],
    ['any (*)', '*'],
  ])('holds for %s', (_case, header) => {
    expect(noneMatchHolds(header, tag)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another tag', '"abd"'],
    ['the tag unquoted', 'abc'],
    ['an empty header', ''],
  ])('does not hold for %s', (_case, header) => {
    expect(noneMatchHolds(header, tag)).toBe(false);
  });
});
