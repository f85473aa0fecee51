import { deletedSecrets, keepDelete, keptDeletes } from '../../../dashboard/src/deleted-secrets';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const at = (daysAgo: number) => new Date(NOW - daysAgo * 24 * 60 * 60 * 1000).toISOString();

describe('deletedSecrets', () => {
  it('lists each name once, at its latest delete, newest first', () => {
    const listed = deletedSecrets(
      [
        { name: 'A', deletedAt: at(5), deletedBy: 'ada@example.com' },
        { name: 'B', deletedAt: at(1), deletedBy: null },
        { name: 'A', deletedAt: at(2), deletedBy: 'bob@example.com' },
      ],
      new Set(),
      NOW,
    );
    expect(listed).toEqual([
      { name: 'B', deletedAt: at(1), deletedBy: null },
      { name: 'A', deletedAt: at(2), deletedBy: 'bob@example.com' },
    ]);
  });

  it('leaves out a secret live again and one deleted more than 30 days ago', () => {
    const listed = deletedSecrets(
      [
        { name: 'RESTORED', deletedAt: at(1), deletedBy: null },
        { name: 'OLD', deletedAt: at(31), deletedBy: null },
        { name: 'NAMES', deletedAt: at(29), deletedBy: null },
      ],
      new Set(['RESTORED']),
      NOW,
    );
    expect(listed.map((entry) => entry.name)).toEqual(['NAMES']);
  });

  it('takes names such as constructor and __proto__ as any other', () => {
    const listed = deletedSecrets(
      [
        { name: 'constructor', deletedAt: at(1), deletedBy: null },
        { name: '__proto__', deletedAt: at(2), deletedBy: null },
      ],
      new Set(['toString']),
      NOW,
    );
    expect(listed.map((entry) => entry.name)).toEqual(['constructor', '__proto__']);
  });
});

describe('keptDeletes', () => {
  const storage = () => {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
  };

  it('keeps the deletes of this tab by project and environment', () => {
    const tab = storage();
    keepDelete(tab, 'prj_1', 'development', { name: 'A', deletedAt: at(0), deletedBy: null });
    keepDelete(tab, 'prj_1', 'staging', { name: 'B', deletedAt: at(0), deletedBy: null });
    expect(keptDeletes(tab, 'prj_1', 'development').map((entry) => entry.name)).toEqual(['A']);
    expect(keptDeletes(tab, 'prj_2', 'development')).toEqual([]);
  });

  it('reads nothing from storage it did not write', () => {
    const tab = storage();
    tab.setItem('deleted:prj_1:development', '{not json');
    expect(keptDeletes(tab, 'prj_1', 'development')).toEqual([]);
  });
});
