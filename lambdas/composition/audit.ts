import { listProjectAuditEvents, listUserAuditEvents } from '@lambdas/data/audit-repository';
import { getMember } from '@lambdas/data/project-repository';
import { auditUseCases } from '@lambdas/use-cases/audit';

/** Reading the caller's trail and their projects' trails (the composition root of their routes). */
export const auditTrails = auditUseCases({
  audit: { listUserAuditEvents, listProjectAuditEvents },
  members: { getMember },
});
