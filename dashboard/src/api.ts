import { createClient, type SecretsClient } from '@client/index';
import type { DashboardConfig } from '@contract/dashboard';

export { bodyOf, dataOf, SecretsApiError as ApiError, SecretsNetworkError } from '@client/index';

/**
 * The API as the screens call it: the typed client (client/), its secret methods, and `api` for every
 * other route by path and method, with parameters, bodies and answers typed from the API document. A
 * non-2xx answer throws an `ApiError` with the API's own text and the fields a validation failure
 * names; no answer throws a `SecretsNetworkError`.
 */
export type Api = SecretsClient;

/**
 * The API client: the session's ID token as the bearer, as the authorizer expects. A 401 means the session is
 * over, so `onUnauthorized` runs (the app asks the person to sign in again) before the error is thrown.
 */
export const createApi = (config: DashboardConfig, idToken: () => string, onUnauthorized: () => void): Api =>
  createClient({
    apiUrl: config.apiUrl,
    token: idToken,
    fetch: async (request) => {
      const response = await fetch(request);
      if (response.status === 401) onUnauthorized();
      return response;
    },
  });
