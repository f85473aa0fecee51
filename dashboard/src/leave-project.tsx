import type { Api } from './api';
import { Confirm } from './ui';

/**
 * Asks whether to leave a project, then leaves it (`DELETE …/members/me`): the person, and every token
 * of theirs, lose its secrets at once. `onLeft` runs once the API has taken them out.
 */
export const LeaveProjectConfirm = ({
  api,
  projectId,
  name,
  onLeft,
  onClose,
}: {
  api: Api;
  projectId: string;
  name: string;
  onLeft: () => void;
  onClose: () => void;
}) => (
  <Confirm
    title={`Leave “${name}”?`}
    action="Leave"
    onClose={onClose}
    onConfirm={async () => {
      await api.api.DELETE('/api/v1/projects/{projectId}/members/me', { params: { path: { projectId } } });
      onLeft();
    }}
  >
    <p>You and your tokens lose access to its secrets at once. Only its owner or an admin can add you again.</p>
  </Confirm>
);
