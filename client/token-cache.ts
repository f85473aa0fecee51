/**
 * A signed-in token kept until shortly before it expires: what the typed client asks before every
 * request when it signs in by itself (a service account's OIDC or AWS sign-in) rather than holding a
 * fixed token. Browser-safe: no Node module, so the client's index may bundle it.
 */

/** What a sign-in answers: the token (`svc_live_…`) and when it stops working (ISO 8601). */
export interface SignedIn {
  readonly token: string;
  readonly expiresAt: string;
}

/** The least time left at which a kept token is still used: a request must not leave with a token about to die. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * How long before its expiry a token of `lifeMs` is replaced: 60 s, or a tenth of its life when that is
 * more (90 s of the default 15 minutes), but never more than half of it (30 s of a token asked for 60 s),
 * so a short-lived token is still used for a while rather than signed in for again on every request.
 */
export const refreshMarginOf = (lifeMs: number): number =>
  Math.min(Math.max(REFRESH_MARGIN_MS, lifeMs / 10), lifeMs / 2);

export interface TokenCache {
  /** The kept token while it has its margin left, else a new one from `signIn` (concurrent callers share one sign-in). */
  token(): Promise<string>;
  /** Forgets `token` when it is the one kept (the service refused it): the next `token()` signs in again. */
  drop(token: string): void;
}

/**
 * Keeps what `signIn` answers, and signs in again once less than its margin (`refreshMarginOf`) is left,
 * by the clock `now` (milliseconds). A failed sign-in is not kept: the next call tries again.
 */
export const createTokenCache = (signIn: () => Promise<SignedIn>, now: () => number = Date.now): TokenCache => {
  let kept: { readonly token: string; readonly renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const renew = async (): Promise<string> => {
    const signedInAt = now();
    const { token, expiresAt } = await signIn();
    const expires = Date.parse(expiresAt);
    // An answer without a readable expiry is used for this request only.
    const renewAt = Number.isFinite(expires) ? expires - refreshMarginOf(Math.max(0, expires - signedInAt)) : 0;
    kept = { token, renewAt };
    return token;
  };
  return {
    token: async () => {
      if (kept !== undefined && now() < kept.renewAt) return kept.token;
      if (pending === undefined) {
        pending = renew();
        const clear = () => {
          pending = undefined;
        };
        pending.then(clear, clear);
      }
      return pending;
    },
    drop: (token) => {
      if (kept?.token === token) kept = undefined;
    },
  };
};
