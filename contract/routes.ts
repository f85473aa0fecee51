/**
 * Every route contract, one module per resource (`contract/routes/`), so that a function bundles only
 * its own resource's contracts; the stack, the local gateway, the API document, the tests and the
 * bench read them all from here.
 */
import type { RouteContract } from './route';
import { listAuditEventsRoute, listProjectAuditEventsRoute } from './routes/audit';
import { addMemberRoute, listMembersRoute, removeMemberRoute } from './routes/members';
import { createProjectRoute, listProjectsRoute } from './routes/projects';
import { createTokenRoute, listTokensRoute, revokeTokenRoute } from './routes/tokens';

export * from './route';
export * from './routes/audit';
export * from './routes/members';
export * from './routes/projects';
export * from './routes/tokens';

/** Every route of the API. */
export const routes: readonly RouteContract[] = [
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
  createProjectRoute,
  listProjectsRoute,
  listMembersRoute,
  addMemberRoute,
  removeMemberRoute,
  listAuditEventsRoute,
  listProjectAuditEventsRoute,
];
