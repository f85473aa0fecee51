import type { RouteAnswer } from '@contract/route';
import type { listProjectsRoute } from '@contract/routes/list-projects';
import { type Api, bodyOf } from './api';
import { List } from './list';
import { ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

/** A project as the list shows it, with the caller's role. */
export type ProjectEntry = RouteAnswer<typeof listProjectsRoute>['data'][number];

/** The address of a project's home, at one of its tabs (its Secrets without one). */
export const projectHref = (projectId: string, tab?: string): string =>
  `#/projects/${encodeURIComponent(projectId)}${tab ? `/${tab}` : ''}`;

/** The caller's projects, as the project's home needs them too. */
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
      <div class="inline-form">
        <input
          id="project-name"
          required
          maxLength={100}
          value={name}
          aria-describedby="create-project-error"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Create project
        </button>
      </div>
      <ErrorMessage id="create-project-error" error={error} />
    </form>
  );
};

/** Projects: the caller's, with their role in each, and a new one. */
export const ProjectsScreen = ({ api }: { api: Api }) => {
  const projects = useLoad(() => loadProjects(api));
  return (
    <>
      <h1>Projects</h1>
      <CreateProjectForm api={api} onCreated={projects.reload} />
      <List
        id="projects"
        title="Your projects"
        rows={projects.data?.data}
        error={projects.error}
        empty="No projects yet."
        rowKey={(project) => project.projectId}
        columns={[
          {
            label: 'Name',
            cell: (project) => <a href={projectHref(project.projectId)}>{project.name}</a>,
          },
          { label: 'Your role', cell: (project) => project.role },
          { label: 'Created', cell: (project) => <When at={project.createdAt} otherwise="" /> },
        ]}
      />
    </>
  );
};
