import type { RouteAnswer } from '@contract/route';
import type { listProjectsRoute } from '@contract/routes/list-projects';
import { type Api, bodyOf } from './api';
import { ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

/** A project as the list shows it, with the caller's role. */
export type ProjectEntry = RouteAnswer<typeof listProjectsRoute>['data'][number];

/** The caller's projects, as the members screen needs them too. */
export const loadProjects = (api: Api) => bodyOf(api.api.GET('/api/v1/projects'));

const CreateProjectForm = ({ api, onCreated }: { api: Api; onCreated: () => void }) => {
  const [name, setName, clearName] = useDraft('project', '');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.api.POST('/api/v1/projects', { body: { name } });
      clearName();
      onCreated();
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-project-title">
      <h2 id="create-project-title">Create a project</h2>
      <label for="project-name">Name</label>
      <input
        id="project-name"
        required
        maxLength={100}
        value={name}
        aria-describedby="create-project-error"
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <ErrorMessage id="create-project-error" error={error} />
      <button type="submit" disabled={busy}>
        Create project
      </button>
    </form>
  );
};

/** Projects: the caller's, with their role in each, and a new one. */
export const ProjectsScreen = ({ api }: { api: Api }) => {
  const projects = useLoad(() => loadProjects(api));
  const list = projects.data?.data;
  return (
    <>
      <h1>Projects</h1>
      <CreateProjectForm api={api} onCreated={projects.reload} />
      <section aria-labelledby="projects-title">
        <h2 id="projects-title">Your projects</h2>
        <ErrorMessage id="projects-error" error={projects.error} />
        {list === undefined ? (
          !projects.error && <p>Loading…</p>
        ) : list.length === 0 ? (
          <p>No projects yet.</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Your role</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.map((project) => (
                <tr key={project.projectId}>
                  <th scope="row" data-label="Name">
                    <a href={`#/projects/${encodeURIComponent(project.projectId)}`}>{project.name}</a>
                  </th>
                  <td data-label="Your role">{project.role}</td>
                  <td data-label="Created">
                    <When at={project.createdAt} otherwise="" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
};
