import { WebStorageStateStore } from 'oidc-client-ts';

/**
 * Where the dashboard keeps the signed-in user: a Web Storage (the tab's own), minus any refresh
 * token. Cognito hands one out with every sign-in by authorization code, and no setting turns that
 * off; the dashboard never renews a session (it asks to sign in again), so it keeps none for a page
 * script to take.
 */
export class SessionStore extends WebStorageStateStore {
  override set(key: string, value: string): Promise<void> {
    const { refresh_token: _unused, ...kept } = JSON.parse(value) as Record<string, unknown>;
    return super.set(key, JSON.stringify(kept));
  }
}
