import type { AuditEvent } from '@contract/audit';
import { tableSchema } from '@contract/table-schema';
import { auditEventKeys } from './keys';

const DAY_SECONDS = 24 * 60 * 60;

/** The trails an event belongs to: always a user's, and a project's for an event of a project. */
export interface AuditTrails {
  readonly userId: string;
  readonly projectId: string | null;
}

/** An event's item: its keys in both trails, its expiry `retentionDays` after it, and the event's own fields. */
export const auditEventItem = (event: AuditEvent, trails: AuditTrails, retentionDays: number) =>
  Object.assign(
    auditEventKeys(event, trails.userId, trails.projectId),
    {
      entity: 'AuditEvent',
      [tableSchema.timeToLiveAttribute]: Math.floor(Date.parse(event.time) / 1000) + retentionDays * DAY_SECONDS,
    },
    event,
  );
