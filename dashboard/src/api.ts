import type { DashboardConfig } from '@contract/dashboard';
import type { ValidationDetail } from '@contract/errors';

/**
 * An answer of the API that is not a success, in the words the API used: its `error`, and the fields
 * a validation failure names (`details`), kept apart so that a form can show each next to its field.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly details: readonly ValidationDetail[] = [],
  ) {
    super(message);
  }
}

interface ErrorBody {
  readonly error?: string;
  readonly details?: readonly ValidationDetail[];
}

/** Calls the API with the session as bearer; answers the success body or throws an {@link ApiError}. */
export type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * The API client: the session's ID token as the bearer, as the authorizer expects. A 401 means the session is
 * over, so `onUnauthorized` runs (the app asks the person to sign in again) before the error is thrown.
 */
export const createApi = (config: DashboardConfig, idToken: () => string, onUnauthorized: () => void): Api => {
  const base = config.apiUrl.replace(/\/+$/, '');
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${idToken()}`,
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
    }
    const payload = (await response.json().catch(() => undefined)) as (ErrorBody & { success?: boolean }) | undefined;
    if (response.status === 401) onUnauthorized();
    if (!response.ok || payload?.success !== true)
      throw new ApiError(
        response.status,
        payload?.error ?? `The service answered ${response.status}`,
        payload?.details,
      );
    return payload as T;
  };
};
