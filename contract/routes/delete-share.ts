import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody } from '../schemas';
import { SHARE_PARAM_ERRORS, shareParams } from '../share-routes';

// The contract of delete share (one module per route: a function bundles only its own).

export const deleteShareRoute = route({
  method: 'DELETE',
  path: '/api/v1/shares/{id}',
  handler: 'delete-share',
  tag: 'shares',
  tokenScope: 'write:secrets',
  summary: 'Withdraw one of the caller’s shares before it is spent',
  success: { status: 200, description: 'Withdrawn; its link reveals nothing any more' },
  errors: { notFound: [ErrorText.shareNotFound] },
  paramErrors: SHARE_PARAM_ERRORS,
  successMetric: 'SharesDeleted',
  // Least work (withdraw a share): the creator check is the Delete's condition, so no read; the slot
  // is freed and the event written in the same transaction.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Share' },
        { action: 'Update', entity: 'ShareSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
  ],
  schemas: () => ({ params: shareParams(), response: successBody() }),
  sample: (world) => ({ params: { id: world.shareId } }),
});
