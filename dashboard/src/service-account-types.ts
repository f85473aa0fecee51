import type { Environment } from '@client/index';
import type { AccessLevel, ServiceAccountLevel } from '@contract/roles';
import type { RouteAnswer } from '@contract/route';
import type { createServiceAccountTokenRoute } from '@contract/routes/create-service-account-token';
import type { listServiceAccountTokensRoute } from '@contract/routes/list-service-account-tokens';
import type { listServiceAccountsRoute } from '@contract/routes/list-service-accounts';
import type { rotateServiceAccountTokenRoute } from '@contract/routes/rotate-service-account-token';

/** A service account as the list answers it, with its access by environment name. */
export type ServiceAccount = RouteAnswer<typeof listServiceAccountsRoute>['data'][number];
/** A service account's token as its list shows it. */
export type ServiceAccountToken = RouteAnswer<typeof listServiceAccountTokensRoute>['data'][number];
/** A new token of a service account, with the raw token once. */
export type NewServiceAccountToken = RouteAnswer<typeof createServiceAccountTokenRoute>['data'];
/** A rotation's replacement, with the raw token once. */
export type RotatedServiceAccountToken = RouteAnswer<typeof rotateServiceAccountTokenRoute>['data'];

/** A service account's level in an environment: `none` where its access leaves the environment out. */
export const serviceAccountLevel = (serviceAccount: Pick<ServiceAccount, 'access'>, environment: string): AccessLevel =>
  (Object.hasOwn(serviceAccount.access, environment) ? serviceAccount.access[environment] : undefined) ?? 'none';

/** The access as the API takes it from a level per environment: `none` left out. */
export const accessBody = (levels: Readonly<Record<string, AccessLevel>>): Record<string, ServiceAccountLevel> =>
  Object.fromEntries(
    Object.entries(levels).filter((entry): entry is [string, ServiceAccountLevel] => entry[1] !== 'none'),
  );

/** A level per environment of the project, from a service account's access (none for the others). */
export const levelsOf = (
  serviceAccount: Pick<ServiceAccount, 'access'> | undefined,
  environments: readonly Environment[],
): Record<string, AccessLevel> =>
  Object.fromEntries(
    environments.map((environment) => [
      environment.name,
      serviceAccount ? serviceAccountLevel(serviceAccount, environment.name) : 'none',
    ]),
  );

/** `production: read, staging: write`, or `none` without any. */
export const accessSummary = (serviceAccount: Pick<ServiceAccount, 'access'>): string => {
  const entries = Object.entries(serviceAccount.access).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? 'none' : entries.map(([environment, level]) => `${environment}: ${level}`).join(', ');
};
