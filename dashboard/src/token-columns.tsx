import type { Column } from './list';
import { isPast } from './token-types';
import { When } from './ui';

/** What every listed token tells of its life and use: a person's and a service account's alike. */
interface TokenUse {
  readonly expiresAt: string | null;
  readonly stopsAt: string | null;
  readonly lastUsedAt: string | null;
  readonly lastUsedIp: string | null;
  readonly allowedIps: readonly string[] | null;
}

/** The columns of a token list about its life and use: when it expires or stops, its last use and from where, where it works from. */
export const tokenUseColumns = <T extends TokenUse>(): Column<T>[] => [
  {
    label: 'Expires',
    cell: (token) =>
      token.stopsAt === null ? (
        <When at={token.expiresAt} otherwise="never" />
      ) : (
        <>
          {isPast(token.stopsAt) ? 'Stopped ' : 'Stops working '}
          <When at={token.stopsAt} otherwise="" />
        </>
      ),
  },
  {
    label: 'Last used',
    cell: (token) => (
      <>
        <When at={token.lastUsedAt} otherwise="never" />
        {token.lastUsedIp && <span class="from"> from {token.lastUsedIp}</span>}
      </>
    ),
  },
  {
    label: 'Works from',
    className: 'addresses',
    cell: (token) => (token.allowedIps === null ? 'Creating address' : token.allowedIps.join(', ')),
  },
];

/** A token row's actions: Rotate, unless a rotation has replaced it already, and Revoke. */
export const tokenActions =
  <T extends { readonly replacedBy: string | null }>(rotate: (token: T) => void, revoke: (token: T) => void) =>
  (token: T) => (
    <>
      {token.replacedBy === null && (
        <button type="button" class="secondary" onClick={() => rotate(token)}>
          Rotate
        </button>
      )}
      <button type="button" class="danger" onClick={() => revoke(token)}>
        Revoke
      </button>
    </>
  );
