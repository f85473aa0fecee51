import type { Environment } from '@client/index';
import type { Api } from './api';
import { ChosenEnvironment, chosenOf } from './environment-choice';
import { EnvironmentSecrets } from './environment-secrets';

/**
 * A project's Secrets tab: its environments as a segmented control, each with its count of live
 * secrets, and the chosen one's secrets (see `EnvironmentSecrets`), unless the person has no access.
 */
export const SecretsPanel = ({
  api,
  projectId,
  environments,
  error,
  chosen,
  filter,
  manages,
  settingsHref,
  changesHref,
  onChoose,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  /** The environment chosen; the first when it is not one of them. */
  chosen: string | undefined;
  /** The name to filter the secrets by first (a reference's link). */
  filter?: string;
  manages: boolean;
  /** Where environments are added: the project's Settings. */
  settingsHref: string;
  /** Where proposed changes wait for approval: the project's Changes. */
  changesHref: string;
  onChoose: (name: string) => void;
  /** An environment's secrets changed: the counts are to be read again. */
  onChanged: () => void;
}) => {
  const current = chosenOf(environments, chosen);
  return (
    <ChosenEnvironment
      environments={environments}
      error={error}
      current={current}
      manages={manages}
      settingsHref={settingsHref}
      onChoose={onChoose}
    >
      {(environment) => (
        <EnvironmentSecrets
          key={`${environment.name}/${filter ?? ''}`}
          api={api}
          projectId={projectId}
          environment={environment}
          initialFilter={filter}
          changesHref={changesHref}
          onChanged={onChanged}
        />
      )}
    </ChosenEnvironment>
  );
};
