import type { Environment } from '@client/index';
import type { Api } from './api';
import { EnvironmentSecrets } from './environment-secrets';
import { ErrorMessage } from './ui';

/**
 * A project's Secrets tab: its environments as a segmented control, each with its count of live
 * secrets, and the chosen one's secrets (see `EnvironmentSecrets`).
 */
export const SecretsPanel = ({
  api,
  projectId,
  environments,
  error,
  chosen,
  manages,
  settingsHref,
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
  onChoose: (name: string) => void;
  /** An environment's secrets changed: the counts are to be read again. */
  onChanged: () => void;
}) => {
  const current = environments?.find((entry) => entry.name === chosen) ?? environments?.[0];
  return (
    <>
      <ErrorMessage id="environments-error" error={error} />
      {environments === undefined ? (
        !error && <p>Loading…</p>
      ) : environments.length === 0 ? (
        <p>This project has no environment yet. {manages && <a href={settingsHref}>Add one in Settings.</a>}</p>
      ) : (
        <fieldset class="segmented environments">
          <legend>Environment</legend>
          {environments.map((entry) => (
            <label key={entry.name}>
              {/* Named in words: the count alone would be read as a bare number after the name. */}
              <input
                type="radio"
                name="environment"
                value={entry.name}
                aria-label={`${entry.name}, ${entry.secretCount} ${entry.secretCount === 1 ? 'secret' : 'secrets'}`}
                checked={entry.name === current?.name}
                onChange={() => onChoose(entry.name)}
              />
              {entry.name}
              <span class="count" aria-hidden="true">
                {entry.secretCount}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {current && (
        <EnvironmentSecrets
          key={current.name}
          api={api}
          projectId={projectId}
          environment={current.name}
          onChanged={onChanged}
        />
      )}
    </>
  );
};
