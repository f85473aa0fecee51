import type { Environment } from '@client/index';
import { type GrantableRole, grantableRoles } from '@contract/roles';
import { useState } from 'preact/hooks';
import { type Api, bodyOf } from './api';
import { List } from './list';
import { type Member, useAccessColumns } from './member-access';
import { Confirm, ErrorMessage, useAction, useDraft, useLoad } from './ui';

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

/**
 * Members of one project, owner first, with their role and their access to each environment (a column
 * each); adding and removing them, and setting a plain member's levels, for owners and admins
 * (`manages`).
 */
export const MembersPanel = ({
  api,
  projectId,
  environments,
  manages,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  manages: boolean;
}) => {
  const members = useLoad(() =>
    bodyOf(api.api.GET('/api/v1/projects/{projectId}/members', { params: { path: { projectId } } })),
  );
  const [removing, setRemoving] = useState<Member>();
  const access = useAccessColumns({ api, projectId, environments, manages, onChanged: members.reload });
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
          ...access.columns,
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
      >
        <p class="hint">
          Access per environment: owners and admins write every one; a member has none, read (its values) or write
          (changes too), by default the environment’s own (Settings).
        </p>
        <p class="status" role="status">
          {access.status}
        </p>
      </List>
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
