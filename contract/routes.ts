/**
 * Every route contract, one module per route (`contract/routes/<handler>.ts`), so that a function
 * bundles only its own contract; the stack, the local gateway, the API document, the tests and the
 * bench read them all from here.
 */
import type { RouteContract } from './route';
import { addMemberRoute } from './routes/add-member';
import { createProjectRoute } from './routes/create-project';
import { createTokenRoute } from './routes/create-token';
import { getMeRoute } from './routes/get-me';
import { listAuditEventsRoute } from './routes/list-audit-events';
import { listMembersRoute } from './routes/list-members';
import { listProjectAuditEventsRoute } from './routes/list-project-audit-events';
import { listProjectsRoute } from './routes/list-projects';
import { listTokensRoute } from './routes/list-tokens';
import { removeMemberRoute } from './routes/remove-member';
import { revokeTokenRoute } from './routes/revoke-token';
import { rotateTokenRoute } from './routes/rotate-token';

export * from './route';
export * from './routes/add-member';
export * from './routes/create-project';
export * from './routes/create-token';
export * from './routes/get-me';
export * from './routes/list-audit-events';
export * from './routes/list-members';
export * from './routes/list-project-audit-events';
export * from './routes/list-projects';
export * from './routes/list-tokens';
export * from './routes/remove-member';
export * from './routes/revoke-token';
export * from './routes/rotate-token';

/** Every route of the API. */
export const routes: readonly RouteContract[] = [
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
  rotateTokenRoute,
  createProjectRoute,
  listProjectsRoute,
  listMembersRoute,
  addMemberRoute,
  removeMemberRoute,
  listAuditEventsRoute,
  listProjectAuditEventsRoute,
  getMeRoute,
];
