import type { RouteAnswer } from '@contract/route';
import type { getMeRoute } from '@contract/routes/get-me';
import { type Api, dataOf } from './api';

/** The caller as the API sees them (`GET /me`): user, e-mail, address, and the projects they were added to. */
export type Me = RouteAnswer<typeof getMeRoute>['data'];

/** The caller as read once a page load and shared by the screens: undefined while it loads, the API's words when it failed. */
export interface MeState {
  readonly data?: Me;
  readonly error?: string;
}

/** `GET /me`. */
export const loadMe = (api: Api): Promise<Me> => dataOf(api.api.GET('/api/v1/me'));
