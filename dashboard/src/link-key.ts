import { SHARE_PATH_PREFIX } from '@client/index';

/**
 * Takes a share link's key out of the address as it is read: the fragment of a link page's address is
 * kept in memory only, and this history entry is replaced by the address without it, so that neither
 * the address bar nor the tab's history (back, forward, a restored or synced history) holds the key
 * once the page has it. Answers the key, or undefined when the address holds none (then nothing
 * changes); a page other than a link page is left as it is.
 */
export const takeLinkKey = (): string | undefined => {
  if (!location.pathname.startsWith(SHARE_PATH_PREFIX) || location.hash === '') return undefined;
  const key = location.hash.slice(1);
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return key;
};
