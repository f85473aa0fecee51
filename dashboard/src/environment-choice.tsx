import type { Environment } from '@client/index';
import type { ComponentChildren } from 'preact';
import { ErrorMessage } from './ui';

/** The environment chosen among `environments`; the first when `chosen` is not one of them. */
export const chosenOf = (
  environments: readonly Environment[] | undefined,
  chosen: string | undefined,
): Environment | undefined => environments?.find((entry) => entry.name === chosen) ?? environments?.[0];

/**
 * A project's environments as a segmented control, each with its count of live secrets, `current`
 * checked; the API's words when they cannot be read, and what to do when there is none.
 */
export const EnvironmentChoice = ({
  environments,
  error,
  current,
  manages,
  settingsHref,
  onChoose,
}: {
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  current: Environment | undefined;
  manages: boolean;
  /** Where environments are added: the project's Settings. */
  settingsHref: string;
  onChoose: (name: string) => void;
}) => (
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
  </>
);

/** What stands for an environment's secrets where the person has no access: not even their names. */
export const NoAccess = ({ environment }: { environment: string }) => (
  <p class="empty">You have no access to {environment}.</p>
);

/**
 * A tab about one environment (Secrets, Changes): the choice of environment, then what `children`
 * shows of the chosen one, or, where the person has no access, only that they have none.
 */
export const ChosenEnvironment = ({
  children,
  ...choice
}: Parameters<typeof EnvironmentChoice>[0] & { children: (environment: Environment) => ComponentChildren }) => (
  <>
    <EnvironmentChoice {...choice} />
    {choice.current &&
      (choice.current.access === 'none' ? <NoAccess environment={choice.current.name} /> : children(choice.current))}
  </>
);
