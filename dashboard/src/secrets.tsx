import type { ProjectRole } from '@contract/roles';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { EnvironmentSecrets } from './environment-secrets';
import { loadProjects } from './projects';
import { ErrorMessage, useAction, useDraft, useLoad } from './ui';

/** Roles that may add environments (docs/api.md); others are not offered the form. */
const MANAGING_ROLES: readonly ProjectRole[] = ['owner', 'admin'];

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
      <h2 id="add-environment-title">Add an environment</h2>
      <p class="hint">Lower-case letters, digits and dashes, such as preview or eu-west-1.</p>
      <label for="environment-name">Environment name</label>
      <input
        id="environment-name"
        required
        maxLength={32}
        autocomplete="off"
        value={name}
        aria-describedby="add-environment-error"
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <ErrorMessage id="add-environment-error" error={error} />
      <button type="submit" disabled={busy}>
        Add environment
      </button>
    </form>
  );
};

/**
 * A project's secrets, by environment: the chosen environment's secrets (see `EnvironmentSecrets`);
 * owners and admins add environments.
 */
export const SecretsScreen = ({ api, projectId }: { api: Api; projectId: string }) => {
  const environments = useLoad(() => api.environments(projectId));
  const projects = useLoad(() => loadProjects(api));
  const [chosen, setChosen] = useState<string>();
  const project = projects.data?.data.find((entry) => entry.projectId === projectId);
  const manages = project !== undefined && MANAGING_ROLES.includes(project.role);
  const list = environments.data;
  const current = list?.find((entry) => entry.name === chosen) ?? list?.[0];
  return (
    <>
      <p>
        <a href={`#/projects/${encodeURIComponent(projectId)}`}>← {project ? project.name : 'Project'}</a>
      </p>
      <h1>{project ? `Secrets of ${project.name}` : 'Secrets'}</h1>
      <section aria-labelledby="environment-title">
        <h2 id="environment-title">Environments</h2>
        <ErrorMessage id="environments-error" error={environments.error} />
        {list === undefined ? (
          !environments.error && <p>Loading…</p>
        ) : list.length === 0 ? (
          <p>This project has no environment yet.</p>
        ) : (
          <>
            <label for="environment">Environment</label>
            <select id="environment" value={current?.name} onChange={(event) => setChosen(event.currentTarget.value)}>
              {list.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name}
                </option>
              ))}
            </select>
            {current && (
              <p>
                {current.secretCount === 0
                  ? `No secrets in ${current.name} yet.`
                  : `${current.secretCount} ${current.secretCount === 1 ? 'secret' : 'secrets'} in ${current.name}.`}
              </p>
            )}
          </>
        )}
      </section>
      {current && (
        <EnvironmentSecrets
          key={current.name}
          api={api}
          projectId={projectId}
          environment={current.name}
          onChanged={environments.reload}
        />
      )}
      {manages && (
        <AddEnvironmentForm
          api={api}
          projectId={projectId}
          onAdded={(name) => {
            setChosen(name);
            environments.reload();
          }}
        />
      )}
    </>
  );
};
