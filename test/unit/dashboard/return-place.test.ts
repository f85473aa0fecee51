import { keepReturnPlace, type TabStorage, takeReturnUrl } from '../../../dashboard/src/return-place';

/** A storage that keeps its entries in a map, as the tab's sessionStorage would. */
const memoryStorage = (): TabStorage & { entries: Map<string, string> } => {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  };
};

const KEY = 'Zm9vYmFyYmF6cXV4cXV1eGZvb2JhcmJhenF1eHF1dXg';

describe('the place a sign-in returns to', () => {
  it('is a share’s link page with its key, kept in the tab and forgotten once taken', () => {
    const storage = memoryStorage();
    keepReturnPlace(storage, { pathname: '/s/shr_0123456789abcdefghijkl', hash: `#${KEY}` });
    expect(takeReturnUrl(storage)).toBe(`/s/shr_0123456789abcdefghijkl#${KEY}`);
    expect(storage.entries.size).toBe(0);
    expect(takeReturnUrl(storage)).toBe('/');
  });

  it('is the home page with the screen its hash named', () => {
    const storage = memoryStorage();
    keepReturnPlace(storage, { pathname: '/', hash: '#/projects/p1/secrets' });
    expect(takeReturnUrl(storage)).toBe('/#/projects/p1/secrets');
  });

  it('is the home page when nothing was kept, or nothing of the dashboard’s', () => {
    const storage = memoryStorage();
    expect(takeReturnUrl(storage)).toBe('/');
    for (const stored of ['not json', 'null', '{"pathname":"//evil.example/s/x","hash":"x"}', '{"pathname":3}']) {
      storage.setItem('sign-in:return', stored);
      expect(takeReturnUrl(storage)).toBe('/');
    }
  });
});
