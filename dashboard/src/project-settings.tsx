import type { Environment } from '@client/index';
import type { ProjectRole } from '@contract/roles';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { CopyField } from './copy-field';
import { environmentNameId, ProtectionHint, useEnvironmentSettings } from './environment-settings';
import { LeaveProjectConfirm } from './leave-project';
import { List } from './list';
import { Confirm, useAction, useDraft, When } from './ui';

const AddEnvironmentForm = ({
  api,
  projectId,
  onAdded,
}: {
  api: Api;
  projectId: string;
  onAdded: (name: string) => void;
}) => {
  const [name, setName, clearName] = useDraft(`environment:${projectId}`, '');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await dataOf(
        api.api.POST('/api/v1/projects/{projectId}/environments', { params: { path: { projectId } }, body: { name } }),
      );
      clearName();
      onAdded(created.name);
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="add-environment-title">
      <h3 id="add-environment-title">Add an environment</h3>
      <label for="environment-name">Environment name</label>
      <p id="environment-name-hint" class="hint">
        Lower-case letters, digits and dashes, such as preview or eu-west-1.
      </p>
      <div class="inline-form">
        <input
          id="environment-name"
          required
          maxLength={32}
          autocomplete="off"
          value={name}
          aria-invalid={error !== undefined}
          aria-describedby={`environment-name-hint${error === undefined ? '' : ' add-environment-error'}`}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Add environment
        </button>
      </div>
      {error && (
        <p id="add-environment-error" class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
};

/**
 * A project's Settings tab: its name, its id with Copy (what `secrets setup` asks for), and its
 * environments with their counts and settings; owners and admins add environments, delete an empty
 * one, and set each one's protection, approvals and members' default access. Every member but the
 * owner may leave the project here.
 */
export const SettingsPanel = ({
  api,
  projectId,
  name,
  role,
  environments,
  error,
  manages,
  onAdded,
  onDeleted,
  onChanged,
  onLeft,
}: {
  api: Api;
  projectId: string;
  name: string | undefined;
  /** The person's role in the project; undefined until it is known. */
  role: ProjectRole | undefined;
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  manages: boolean;
  onAdded: (name: string) => void;
  onDeleted: () => void;
  /** An environment's settings changed. */
  onChanged: () => void;
  onLeft: () => void;
}) => {
  const [deleting, setDeleting] = useState<Environment>();
  const [leaving, setLeaving] = useState(false);
  const settings = useEnvironmentSettings({ api, projectId, manages, onChanged });
  return (
    <>
      <section class="panel" aria-labelledby="project-details-title">
        <h2 id="project-details-title">Project</h2>
        <dl class="details">
          <dt>Name</dt>
          <dd>{name ?? '…'}</dd>
        </dl>
        <CopyField id="project-id" label="Project id" text={projectId} what="project id" />
        <p class="hint">
          <code>secrets setup</code> asks for it, to point a folder at this project.
        </p>
      </section>
      <List
        id="environments"
        title="Environments"
        rows={environments}
        error={error}
        empty="This project has no environment yet."
        rowKey={(environment) => environment.name}
        columns={[
          {
            label: 'Environment',
            cell: (environment) => <span id={environmentNameId(environment.name)}>{environment.name}</span>,
          },
          { label: 'Secrets', cell: (environment) => environment.secretCount },
          { label: 'Created', cell: (environment) => <When at={environment.createdAt} otherwise="" /> },
          ...settings.columns,
        ]}
        actions={
          manages
            ? (environment) => (
                <button type="button" class="danger" onClick={() => setDeleting(environment)}>
                  Delete
                </button>
              )
            : undefined
        }
      >
        <p class="hint">
          A protected environment changes only through change requests, applied once they have their approvals. Members
          without a level of their own (Members tab) have the default access.
        </p>
        {manages && (
          <ProtectionHint
            environments={environments}
            isProtected={settings.isProtected}
            onProtect={(environment) => void settings.protect(environment)}
          />
        )}
        <p class="status" role="status">
          {settings.status}
        </p>
        {manages && <AddEnvironmentForm api={api} projectId={projectId} onAdded={onAdded} />}
      </List>
      {role !== undefined && role !== 'owner' && (
        <section class="panel" aria-labelledby="leave-project-title">
          <h2 id="leave-project-title">Leave this project</h2>
          <p class="hint">Its owner cannot leave it; any other member may.</p>
          <button type="button" class="danger" onClick={() => setLeaving(true)}>
            Leave project
          </button>
        </section>
      )}
      {leaving && (
        <LeaveProjectConfirm
          api={api}
          projectId={projectId}
          name={name ?? projectId}
          onLeft={onLeft}
          onClose={() => setLeaving(false)}
        />
      )}
      {deleting && (
        <Confirm
          title={`Delete the environment “${deleting.name}”?`}
          action="Delete"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api.api.DELETE('/api/v1/projects/{projectId}/environments/{environment}', {
              params: { path: { projectId, environment: deleting.name } },
            });
            onDeleted();
          }}
        >
          <p>Only an environment without live secrets can be deleted.</p>
        </Confirm>
      )}
    </>
  );
};
