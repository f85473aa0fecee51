import type { DashboardConfig } from '@contract/dashboard';

/** An answer of the API that is not a success, in the words the API used. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface ErrorBody {
  readonly error?: string;
  readonly details?: readonly { path: string; message: string }[];
}

/** The error's text, with the fields a validation failure names. */
const describe = (status: number, body: ErrorBody | undefined): string => {
  const text = body?.error ?? `The service answered ${status}`;
  const details = body?.details?.map((detail) => (detail.path ? `${detail.path}: ${detail.message}` : detail.message));
  return details?.length ? `${text}: ${details.join('; ')}` : text;
};

/** Calls the API with the session as bearer; answers the success body or throws an {@link ApiError}. */
export type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * The API client: the session's ID token as the bearer, as DESIGN.md says. A 401 means the session is
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
      throw new ApiError(response.status, describe(response.status, payload));
    return payload as T;
  };
};
