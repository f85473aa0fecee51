import { CHANGE_REQUEST_PARAM_ERRORS, changeRequest, changeRequestParams } from '../change-requests';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of approve change request (one module per route: a function bundles only its own).

export const approveChangeRequestRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/approve',
  handler: 'approve-change-request',
  tag: 'changes',
  tokenScope: null,
  summary:
    'Approve a change request (an owner or admin other than its author): applied at once, all or nothing, when its approvals reach the environment’s number',
  success: { status: 200, description: 'The request: still open, or applied' },
  errors: {
    forbidden: [ErrorText.environmentAccess, ErrorText.projectRole, ErrorText.ownApproval],
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
  successMetric: 'ChangeRequestsApproved',
  // Least work (approve, the last approval): at once, the caller's membership, the environment and the
  // project's key, the request and its proposed values; then the write of them all as one change (the
  // secrets' write: membership, environment, each head at the version it was proposed on, its version
  // and event), closing the request with its events and freeing its slot in the same transaction. Only
  // people approve: no API token may.
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
    // Approvals still short of the environment's number: the approval recorded, the approver's role checked.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'ChangeRequest' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'ConditionCheck', entity: 'Member' },
      ],
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    params: changeRequestParams(),
    response: dataBody(changeRequest()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, id: world.changeRequestId },
  }),
});
