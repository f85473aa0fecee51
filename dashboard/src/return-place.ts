import { SHARE_PATH_PREFIX } from '@client/index';

/**
 * Where the tab returns after a sign-in: the page and its fragment as they were when the person
 * clicked Sign in. They are kept in the tab's own storage, not in the sign-in's state, which
 * oidc-client-ts keeps in `localStorage`, beyond the tab: a share link's fragment is its key, which
 * must stay in this tab and never go further than this browser.
 */
const RETURN_KEY = 'sign-in:return';

/** What of a Web Storage this needs (the tab's `sessionStorage`; the tests' own, in Node). */
export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The part of `location` the dashboard returns to. */
export interface Place {
  readonly pathname: string;
  readonly hash: string;
}

/** Notes `place` as the one to return to after the sign-in this tab is about to start. */
export const keepReturnPlace = (storage: TabStorage, place: Place): void =>
  storage.setItem(RETURN_KEY, JSON.stringify({ pathname: place.pathname, hash: place.hash } satisfies Place));

/**
 * The URL to return to after a sign-in (the place kept, then forgotten): the dashboard's home or a
 * share's link page, with the fragment it had; the home when nothing (or nothing of the dashboard's)
 * was kept.
 */
export const takeReturnUrl = (storage: TabStorage): string => {
  const stored = storage.getItem(RETURN_KEY);
  storage.removeItem(RETURN_KEY);
  let place: Partial<Place> = {};
  try {
    place = (JSON.parse(stored ?? '{}') ?? {}) as Partial<Place>;
  } catch {
    // Not written by this dashboard: the home page is the safe place.
  }
  const { pathname, hash } = place;
  // Only the dashboard's own pages: a URL of another origin would stop `history.replaceState`.
  const path = typeof pathname === 'string' && pathname.startsWith(SHARE_PATH_PREFIX) ? pathname : '/';
  const fragment = typeof hash === 'string' && hash.startsWith('#') ? hash : '';
  return `${path}${fragment}`;
};
