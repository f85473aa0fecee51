import { type GrantableRole, grantableRoles, type ProjectRole } from '@contract/roles';
import type { RouteAnswer } from '@contract/route';
import type { listMembersRoute } from '@contract/routes/list-members';
import { useState } from 'preact/hooks';
import { type Api, bodyOf } from './api';
import { loadProjects } from './projects';
import { Confirm, ErrorMessage, useAction, useDraft, useLoad } from './ui';

type Member = RouteAnswer<typeof listMembersRoute>['data'][number];

/** Roles that may add and remove members (docs/api.md); others are not offered the controls. */
const MANAGING_ROLES: readonly ProjectRole[] = ['owner', 'admin'];

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

/** Members of one project, owner first; adding and removing for owners and admins. */
export const MembersScreen = ({ api, projectId }: { api: Api; projectId: string }) => {
  const members = useLoad(() =>
    bodyOf(api.api.GET('/api/v1/projects/{projectId}/members', { params: { path: { projectId } } })),
  );
  const projects = useLoad(() => loadProjects(api));
  const [removing, setRemoving] = useState<Member>();
  const project = projects.data?.data.find((entry) => entry.projectId === projectId);
  const manages = project !== undefined && MANAGING_ROLES.includes(project.role);
  const list = members.data?.data;
  return (
    <>
      <p>
        <a href="#/projects">← Projects</a>
      </p>
      <h1>{project ? `Members of ${project.name}` : 'Members'}</h1>
      <p>
        <a href={`#/projects/${encodeURIComponent(projectId)}/secrets`}>Secrets</a>
        {manages && (
          <>
            {' · '}
            <a href={`#/projects/${encodeURIComponent(projectId)}/activity`}>Project activity</a>
          </>
        )}
      </p>
      {manages && <AddMemberForm api={api} projectId={projectId} onAdded={members.reload} />}
      <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <ErrorMessage id="members-error" error={members.error} />
        {list === undefined ? (
          !members.error && <p>Loading…</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                {manages && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((member) => (
                <tr key={member.userId}>
                  <th scope="row" data-label="E-mail">
                    {member.email}
                  </th>
                  <td data-label="Role">{member.role}</td>
                  {manages && (
                    <td class="row-actions">
                      {member.role !== 'owner' && (
                        <button type="button" class="danger" onClick={() => setRemoving(member)}>
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
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
