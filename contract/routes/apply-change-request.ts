import { CHANGE_REQUEST_PARAM_ERRORS, changeRequest, changeRequestParams, note } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of apply change request (one module per route: a function bundles only its own).

export const applyChangeRequestRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/apply',
  handler: 'apply-change-request',
  tag: 'changes',
  tokenScope: null,
  serviceAccounts: true,
  summary: 'Apply an open change request without its approvals (the owner only, with a reason): break glass, recorded',
  success: { status: 200, description: 'The request, applied' },
  errors: {
    forbidden: [ErrorText.environmentAccess, ErrorText.projectRole],
    notFound: [
      ErrorText.projectNotFound,
      ErrorText.environmentNotFound,
      ErrorText.changeRequestNotFound,
      ErrorText.secretNotFound,
      ErrorText.secretVersionNotFound,
    ],
    conflict: [ErrorText.changeRequestNotOpen, ErrorText.changeRequestOutOfDate, ErrorText.secretLimit],
  },
  paramErrors: CHANGE_REQUEST_PARAM_ERRORS,
  successMetric: 'ChangeRequestsForced',
  // Least work (break glass): as the last approval's, with `change_request.forced` (the reason) in
  // place of the approval. Only the owner, in a session.
  keyUse: ['Decrypt'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'Project'], consistent: true },
    { operation: 'GetItem', entity: 'ChangeRequest', consistent: true },
    { operation: 'Query', entity: 'ProposedValue', consistent: true },
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead', 'Project'], consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'Environment' },
        { action: 'Put', entity: 'SecretHead' },
        { action: 'Put', entity: 'SecretVersion' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Put', entity: 'ChangeRequest' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Update', entity: 'ChangeSlots' },
      ],
    },
    // A restore reads the version it writes again.
    { operation: 'GetItem', entity: 'SecretVersion', consistent: true, beyondFloor: true },
    // A secret moved since the proposal: nothing written, the request marked conflicted with its event.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'ChangeRequest' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'Update', entity: 'ChangeSlots' },
      ],
      beyondFloor: true,
    },
    accessDenial,
  ],
  schemas: () => ({
    params: changeRequestParams(),
    body: exactly({ reason: note('a reason') }, 'field'),
    response: dataBody(changeRequest()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, id: world.changeRequestId },
    body: { reason: 'The payment provider is down; the fix cannot wait' },
  }),
});
