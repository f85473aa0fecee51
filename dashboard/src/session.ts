import { DASHBOARD_CONFIG_PATH, type DashboardConfig } from '@contract/dashboard';
import { type User, UserManager } from 'oidc-client-ts';
import { keepReturnPlace, takeReturnUrl } from './return-place';
import { SessionStore } from './session-store';

/** Where the browser returns after sign-in and sign-out: the dashboard itself. */
const homeUrl = (): string => `${location.origin}/`;

/** The signed-in person, or why nobody is. */
export interface SessionState {
  readonly user: User | undefined;
  /** Shown on the sign-in screen: a session that ended, or a sign-in that failed. */
  readonly notice: string | undefined;
}

/** Sign-in through the issuer with the authorization code flow and PKCE; no secret lives in the browser. */
export interface Session {
  readonly config: DashboardConfig;
  /** The state at start, after finishing a sign-in the issuer just redirected back from. */
  readonly initial: SessionState;
  /**
   * Sends the browser to the issuer's sign-in page; it comes back to the screen it left, with its
   * fragment, or `fragment` when the address no longer shows it (a share link's key, taken out of the
   * address), kept in the tab, never sent to the issuer.
   */
  signIn(fragment?: string): Promise<void>;
  /** Forgets the session here, then ends it at the issuer when the issuer offers that. */
  signOut(): Promise<void>;
  /** Forgets an expired session so that the next screen asks to sign in again. */
  forget(): Promise<void>;
}

const readConfig = async (): Promise<DashboardConfig> => {
  const response = await fetch(DASHBOARD_CONFIG_PATH, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${DASHBOARD_CONFIG_PATH} answered ${response.status}`);
  return (await response.json()) as DashboardConfig;
};

/** Starts the session: reads `config.json`, and completes the sign-in when the URL carries its answer. */
export const startSession = async (): Promise<Session> => {
  const config = await readConfig();
  const manager = new UserManager({
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: homeUrl(),
    post_logout_redirect_uri: homeUrl(),
    response_type: 'code',
    scope: 'openid email',
    // The tab's own storage: the session ends with the tab and no other tab or site reads it.
    userStore: new SessionStore({ store: sessionStorage }),
    automaticSilentRenew: false,
    loadUserInfo: false,
  });

  let notice: string | undefined;
  const query = new URLSearchParams(location.search);
  if (query.has('state') && (query.has('code') || query.has('error'))) {
    try {
      await manager.signinRedirectCallback();
    } catch (error) {
      notice = `Sign-in failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    // Back where Sign in was clicked, also after a failure: a share's link page offers to sign in again.
    history.replaceState(null, '', takeReturnUrl(sessionStorage));
  }
  const stored = (await manager.getUser()) ?? undefined;
  const expired = stored?.expired === true;
  if (expired) {
    await manager.removeUser();
    notice = 'Your session expired. Sign in again.';
  }

  return {
    config,
    initial: { user: expired ? undefined : stored, notice },
    signIn: (fragment) => {
      keepReturnPlace(sessionStorage, { pathname: location.pathname, hash: fragment ?? location.hash });
      return manager.signinRedirect();
    },
    signOut: async () => {
      const user = await manager.getUser();
      await manager.removeUser();
      if (config.signOutUrl) return location.assign(config.signOutUrl);
      const endSession = await manager.metadataService.getEndSessionEndpoint().catch(() => undefined);
      if (endSession) return manager.signoutRedirect({ id_token_hint: user?.id_token });
      location.assign(homeUrl());
    },
    forget: () => manager.removeUser(),
  };
};
