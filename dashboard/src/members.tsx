import { type GrantableRole, grantableRoles } from '@contract/roles';
import type { RouteAnswer } from '@contract/route';
import type { listMembersRoute } from '@contract/routes/list-members';
import { useState } from 'preact/hooks';
import { type Api, bodyOf } from './api';
import { List } from './list';
import { Confirm, ErrorMessage, useAction, useDraft, useLoad } from './ui';

type Member = RouteAnswer<typeof listMembersRoute>['data'][number];

interface MemberDraft {
  readonly email: string;
  readonly role: GrantableRole;
}

const AddMemberForm = ({ api, projectId, onAdded }: { api: Api; projectId: string; onAdded: () => void }) => {
  const [draft, setDraft, clearDraft] = useDraft<MemberDraft>(`member:${projectId}`, { email: '', role: 'member' });
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.api.POST('/api/v1/projects/{projectId}/members', { params: { path: { projectId } }, body: draft });
      clearDraft();
      onAdded();
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="add-member-title">
      <h2 id="add-member-title">Add a member</h2>
      <p class="hint">They must have signed in to the dashboard once.</p>
      <div class="fields">
        <div>
          <label for="member-email">E-mail</label>
          <input
            id="member-email"
            type="email"
            required
            autocomplete="off"
            value={draft.email}
            aria-describedby="add-member-error"
            onInput={(event) => setDraft({ ...draft, email: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="member-role">Role</label>
          <select
            id="member-role"
            value={draft.role}
            onChange={(event) => setDraft({ ...draft, role: event.currentTarget.value as GrantableRole })}
          >
            {grantableRoles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorMessage id="add-member-error" error={error} />
      <button type="submit" disabled={busy}>
        Add member
      </button>
    </form>
  );
};

/** Members of one project, owner first; adding and removing for owners and admins (`manages`). */
export const MembersPanel = ({ api, projectId, manages }: { api: Api; projectId: string; manages: boolean }) => {
  const members = useLoad(() =>
    bodyOf(api.api.GET('/api/v1/projects/{projectId}/members', { params: { path: { projectId } } })),
  );
  const [removing, setRemoving] = useState<Member>();
  return (
    <>
      {manages && <AddMemberForm api={api} projectId={projectId} onAdded={members.reload} />}
      <List
        id="members"
        title="Members"
        rows={members.data?.data}
        error={members.error}
        rowKey={(member) => member.userId}
        columns={[
          { label: 'E-mail', cell: (member) => member.email },
          { label: 'Role', cell: (member) => member.role },
        ]}
        actions={
          manages
            ? (member) =>
                member.role !== 'owner' && (
                  <button type="button" class="danger" onClick={() => setRemoving(member)}>
                    Remove
                  </button>
                )
            : undefined
        }
      />
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          action="Remove"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await api.api.DELETE('/api/v1/projects/{projectId}/members/{email}', {
              params: { path: { projectId, email: removing.email } },
            });
            members.reload();
          }}
        >
          <p>They lose access to this project at once.</p>
        </Confirm>
      )}
    </>
  );
};
