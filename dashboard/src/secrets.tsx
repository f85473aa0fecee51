import type { Environment } from '@client/index';
import type { Api } from './api';
import { chosenOf, EnvironmentChoice } from './environment-choice';
import { EnvironmentSecrets } from './environment-secrets';

/** What stands for an environment's secrets where the person has no access: not even their names. */
export const NoAccess = ({ environment }: { environment: string }) => (
  <p class="empty">You have no access to {environment}.</p>
);

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
    <>
      <EnvironmentChoice
        environments={environments}
        error={error}
        current={current}
        manages={manages}
        settingsHref={settingsHref}
        onChoose={onChoose}
      />
      {current &&
        (current.access === 'none' ? (
          <NoAccess environment={current.name} />
        ) : (
          <EnvironmentSecrets
            key={current.name}
            api={api}
            projectId={projectId}
            environment={current}
            changesHref={changesHref}
            onChanged={onChanged}
          />
        ))}
    </>
  );
};
