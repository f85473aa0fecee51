import { User } from 'oidc-client-ts';
import { SessionStore } from '../../../dashboard/src/session-store';

/** A Web Storage that keeps its entries in a map, as the tab's sessionStorage would. */
const memoryStorage = () => {
  const entries = new Map<string, string>();
  return {
    entries,
    get length() {
      return entries.size;
    },
    key: (index: number) => [...entries.keys()][index] ?? null,
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
    clear: () => entries.clear(),
  };
};

describe("the dashboard's session store", () => {
  it('keeps the signed-in user without the refresh token Cognito hands out with every sign-in', async () => {
    const storage = memoryStorage();
    const store = new SessionStore({ store: storage });
    const user = new User({
      id_token: 'id',
      access_token: 'access',
      refresh_token: 'refresh',
      token_type: 'Bearer',
      profile: { sub: 'user', iss: 'https://issuer', aud: 'client', exp: 2_000_000_000, iat: 1_000_000_000 },
      session_state: null,
    });
    await store.set('user:issuer:client', user.toStorageString());

    expect([...storage.entries.values()].join()).not.toContain('refresh');
    const kept = User.fromStorageString((await store.get('user:issuer:client')) ?? '');
    expect([kept.id_token, kept.access_token, kept.refresh_token]).toEqual(['id', 'access', undefined]);
  });
});
