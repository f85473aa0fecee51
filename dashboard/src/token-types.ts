import type { RouteAnswer } from '@contract/route';
import type { createTokenRoute } from '@contract/routes/create-token';
import type { listTokensRoute } from '@contract/routes/list-tokens';
import type { rotateTokenRoute } from '@contract/routes/rotate-token';

/** A token as the list shows it. */
export type TokenEntry = RouteAnswer<typeof listTokensRoute>['data'][number];
/** A new token as its creation answers it, with the raw token once. */
export type NewToken = RouteAnswer<typeof createTokenRoute>['data'];
/** A rotation's replacement, with the raw token once. */
export type RotatedToken = RouteAnswer<typeof rotateTokenRoute>['data'];

/** A raw token as a creation answers it once: a person's or a service account's. */
export interface ShownOnce {
  readonly id: string;
  readonly name: string;
  readonly rawToken: string;
}

/** A rotation's replacement as it answers it once, with the token it replaces and when that one stops. */
export interface RotatedOnce extends ShownOnce {
  readonly replaces: { readonly id: string; readonly stopsAt: string };
}

/**
 * A raw token to show once: a new one, or a rotation's with the listed token it replaces; a person's
 * (`NewToken`, `RotatedToken`) or a service account's, which answer the same fields.
 */
export interface Shown {
  readonly token: NewToken | RotatedToken | ShownOnce | RotatedOnce;
  readonly replaced?: { readonly displayPrefix: string };
}

/** Whether an instant the API named (a rotated token's `stopsAt`) has come. */
export const isPast = (at: string): boolean => Date.parse(at) <= Date.now();
