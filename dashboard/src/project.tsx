import type { ProjectRole } from '@contract/roles';
import { useEffect, useState } from 'preact/hooks';
import { ActivityLog } from './activity';
import type { Api } from './api';
import { ChangesPanel } from './changes';
import { ComparePanel } from './compare';
import type { MeState } from './me';
import { MembersPanel } from './members';
import { SettingsPanel } from './project-settings';
import { loadProjects, projectHref } from './projects';
import { SecretsPanel } from './secrets';
import { ServiceAccountsPanel } from './service-accounts';
import { type Tab, Tabs } from './tabs';
import { useLoad } from './ui';

/**
 * The tabs of a project's home, in order, the first its default: each one's id is its address
 * (`#/projects/<id>/<tab>`). `managers`: shown to owners and admins only (the API refuses the others).
 * A new screen of a project is one more entry here and its panel in `ProjectScreen`.
 */
const PROJECT_TABS = [
  { id: 'secrets', label: 'Secrets', managers: false },
  { id: 'members', label: 'Members', managers: false },
  // After Members, as Changes is, so that the tabs' keys still reach Members and Settings as before; and
  // before Changes, where a promote into a protected environment leads.
  { id: 'compare', label: 'Compare', managers: false },
  { id: 'changes', label: 'Changes', managers: false },
  // Before Activity, so that End still reaches Settings and the arrow keys the tabs they reached.
  { id: 'service-accounts', label: 'Service accounts', managers: false },
  { id: 'activity', label: 'Activity', managers: true },
  { id: 'settings', label: 'Settings', managers: false },
] as const;

/** A tab of a project's home. */
export type ProjectTab = (typeof PROJECT_TABS)[number]['id'];

/** The tab an address's part names; the default (Secrets) for none or an unknown one. */
export const projectTabOf = (part: string | undefined): ProjectTab =>
  PROJECT_TABS.find((tab) => tab.id === part)?.id ?? 'secrets';

/** Roles that manage a project: its members, environments and trail (docs/api.md). */
const MANAGING_ROLES: readonly ProjectRole[] = ['owner', 'admin'];

/**
 * A project's home: its name, and its tabs (Secrets, Members, Compare, Changes, Service accounts, Activity
 * for its owner and admins, Settings), each at its own address. Opening it marks a project someone added the person to as
 * opened (`onOpened` once the API has), and Settings offers a member to leave it (`onLeft`).
 */
export const ProjectScreen = ({
  api,
  projectId,
  tab,
  environment,
  filter,
  serviceAccountId,
  me,
  onOpened,
  onLeft,
}: {
  api: Api;
  projectId: string;
  tab: ProjectTab;
  /** The service account whose page the address names, on the Service accounts tab. */
  serviceAccountId?: string;
  /** The caller as the API sees them: the address a new token works from. */
  me: MeState;
  /** The environment the address names (a reference's link), chosen when it changes. */
  environment?: string;
  /** The name the address filters the Secrets by (a reference's link). */
  filter?: string;
  onOpened: (projectId: string) => void;
  onLeft: (projectId: string) => void;
}) => {
  const projects = useLoad(() => loadProjects(api));
  const environments = useLoad(() => api.environments(projectId));
  // Kept while the person moves between tabs: Secrets and Changes come back at the environment they chose.
  const [chosen, setChosen] = useState<string | undefined>(environment);
  useEffect(() => {
    if (environment !== undefined) setChosen(environment);
  }, [environment, filter]);
  const project = projects.data?.data.find((entry) => entry.projectId === projectId);
  const manages = project !== undefined && MANAGING_ROLES.includes(project.role);
  const added = project?.addedBy !== null && project?.addedBy !== undefined;
  useEffect(() => {
    if (!added) return;
    // The person has looked at the project: its notice goes (docs/api.md). A failure leaves the notice
    // for the next opening.
    api.api.POST('/api/v1/projects/{projectId}/members/me/seen', { params: { path: { projectId } } }).then(
      () => onOpened(projectId),
      () => undefined,
    );
  }, [added]);
  // Until the role is known every tab is offered, so that a manager's tab does not flash away.
  const tabs: Tab[] = PROJECT_TABS.filter((entry) => !entry.managers || manages || project === undefined).map(
    (entry) => ({
      id: entry.id,
      label: entry.label,
      href: projectHref(projectId, entry.id === 'secrets' ? undefined : entry.id),
    }),
  );
  const shown = tabs.some((entry) => entry.id === tab) ? tab : 'secrets';
  return (
    <>
      <p>
        <a href="#/projects">← Projects</a>
      </p>
      <h1>{project?.name ?? 'Project'}</h1>
      {project && <p class="lead">Your role: {project.role}</p>}
      <Tabs label="Project" id="project" tabs={tabs} current={shown}>
        {shown === 'secrets' && (
          <SecretsPanel
            api={api}
            projectId={projectId}
            environments={environments.data}
            error={environments.error}
            chosen={chosen}
            filter={filter}
            manages={manages}
            settingsHref={projectHref(projectId, 'settings')}
            changesHref={projectHref(projectId, 'changes')}
            onChoose={setChosen}
            onChanged={environments.reload}
          />
        )}
        {shown === 'members' && (
          <MembersPanel api={api} projectId={projectId} environments={environments.data} manages={manages} />
        )}
        {shown === 'compare' && (
          <ComparePanel
            api={api}
            projectId={projectId}
            environments={environments.data}
            error={environments.error}
            manages={manages}
            settingsHref={projectHref(projectId, 'settings')}
            changesHref={projectHref(projectId, 'changes')}
            onChoose={setChosen}
            onChanged={environments.reload}
          />
        )}
        {shown === 'changes' && (
          <ChangesPanel
            api={api}
            projectId={projectId}
            environments={environments.data}
            error={environments.error}
            chosen={chosen}
            role={project?.role}
            settingsHref={projectHref(projectId, 'settings')}
            onChoose={setChosen}
            onChanged={environments.reload}
          />
        )}
        {shown === 'service-accounts' && (
          <ServiceAccountsPanel
            api={api}
            projectId={projectId}
            serviceAccountId={serviceAccountId}
            environments={environments.data}
            error={environments.error}
            manages={manages}
            me={me}
          />
        )}
        {shown === 'activity' && <ActivityLog api={api} projectId={projectId} projects={projects.data?.data} />}
        {shown === 'settings' && (
          <SettingsPanel
            api={api}
            projectId={projectId}
            name={project?.name}
            role={project?.role}
            environments={environments.data}
            error={environments.error}
            manages={manages}
            onAdded={(name) => {
              setChosen(name);
              environments.reload();
            }}
            onDeleted={environments.reload}
            onChanged={environments.reload}
            onLeft={() => onLeft(projectId)}
          />
        )}
      </Tabs>
    </>
  );
};
