import { changeProposal, changeRequest, changeRequestsParams, proposalWrites } from '../change-requests';
import { ErrorText } from '../errors';
import { PATCH_BODY_BYTES } from '../limits';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody } from '../schemas';
import { accessDenial } from '../secret-routes';

// The contract of create change request (one module per route: a function bundles only its own).

export const createChangeRequestRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/environments/{environment}/change-requests',
  handler: 'create-change-request',
  tag: 'changes',
  tokenScope: 'write:secrets',
  serviceAccounts: true,
  summary: 'Propose a change of an environment’s secrets (what a PATCH carries, restores and a note), to be approved',
  success: { status: 201, description: 'The open request, without its values' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [
      ErrorText.projectNotFound,
      ErrorText.environmentNotFound,
      ErrorText.secretNotFound,
      ErrorText.secretVersionNotFound,
    ],
    conflict: [ErrorText.secretConflict, ErrorText.changeRequestLimit],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  maxBodyBytes: PATCH_BODY_BYTES,
  successMetric: 'ChangeRequestsCreated',
  // Least work (propose a change): the caller's membership, the environment, the heads named and the
  // project's wrapped data key, strongly consistent in one call, beside the environment's slots of
  // open requests; then, atomically, the membership and the environment checked again, the slots
  // moved on (the limit of open requests), the request, each proposed value sealed apart, and the event.
  // An environment's first request puts its slots; a project's first value stores its data key.
  keyUse: ['Decrypt', 'GenerateDataKey'],
  dataAccess: [
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'SecretHead', 'Project'],
      consistent: true,
    },
    { operation: 'GetItem', entity: 'ChangeSlots', consistent: true },
    ...proposalWrites({ beyondFloor: false, storesKey: true }),
    accessDenial,
  ],
  schemas: () => ({
    params: changeRequestsParams(),
    body: changeProposal(),
    response: dataBody(changeRequest()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment },
    body: { set: { API_URL: 'https://api.example.com' }, note: 'Point the app at the new API' },
  }),
});
