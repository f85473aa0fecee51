import type { Environment, operations } from '@client/index';
import { MAX_APPROVALS } from '@contract/limits';
import { type AccessLevel, accessLevels } from '@contract/roles';
import type { ComponentChildren } from 'preact';
import { type Api, dataOf } from './api';
import { counted } from './change-words';
import type { Column } from './list';
import { accessWords } from './member-access';
import { ErrorMessage, useSaveOnChange } from './ui';

/** What an owner or admin changes of an environment: protection, approvals, members' default access. */
type EnvironmentUpdate = operations['updateEnvironment']['requestBody']['content']['application/json'];

/** The settings a row offers, by the control's name. */
type Setting = 'protected' | 'approvals' | 'defaultAccess';

/** The environment the controls of a row are about: its name in the row's heading, by this id. */
export const environmentNameId = (name: string) => `environment-${name}`;

const APPROVAL_CHOICES = Array.from({ length: MAX_APPROVALS }, (_, index) => String(index + 1));

/** What a saved update did, in a sentence about the environment as the API answered it. */
const savedText = (environment: Environment, setting: Setting): string => {
  const waits = `${environment.name}’s changes wait for ${counted(environment.approvals, 'approval')}.`;
  switch (setting) {
    case 'protected':
      return environment.protected
        ? `${environment.name} is protected: its changes wait for ${counted(environment.approvals, 'approval')}.`
        : `${environment.name} is not protected any more: whoever may write there changes its secrets at once.`;
    case 'approvals':
      return waits;
    case 'defaultAccess':
      return `Members without a level of their own now have ${accessWords(environment.defaultAccess)} to ${environment.name}.`;
  }
};

/**
 * An environment's settings as columns of the environments list: Protected, Approvals and Default
 * access for members, each a control for owners and admins (`manages`) saved at once by a PATCH, with
 * the API's words beside it when refused, and plain text for the others. `status` says what the last
 * save did; `protect` protects one environment, for the hint that suggests it, and `isProtected` says
 * whether one is, as its checkbox shows it.
 */
export const useEnvironmentSettings = ({
  api,
  projectId,
  manages,
  onChanged,
}: {
  api: Api;
  projectId: string;
  manages: boolean;
  /** An environment's settings changed: the environments are to be read again. */
  onChanged: () => void;
}): {
  columns: Column<Environment>[];
  status: string;
  protect: (environment: Environment) => Promise<void>;
  isProtected: (environment: Environment) => boolean;
} => {
  const { shown, errorOf, status, save } = useSaveOnChange();
  const update = (environment: Environment, setting: Setting, value: string, body: EnvironmentUpdate) =>
    save(`${environment.name}:${setting}`, value, async () => {
      const updated = await dataOf(
        api.api.PATCH('/api/v1/projects/{projectId}/environments/{environment}', {
          params: { path: { projectId, environment: environment.name } },
          body,
        }),
      );
      onChanged();
      return savedText(updated, setting);
    });
  /** A control of a row: named as its column, described by the row's environment and its error. */
  const control = (
    environment: Environment,
    setting: Setting,
    render: (props: {
      id: string;
      'aria-invalid': boolean;
      'aria-describedby': string;
      value: string;
    }) => ComponentChildren,
    saved: string,
  ) => {
    const id = `${setting}-${environment.name}`;
    const failure = errorOf(`${environment.name}:${setting}`);
    return (
      <>
        {render({
          id,
          'aria-invalid': failure !== undefined,
          'aria-describedby': [environmentNameId(environment.name), failure && `${id}-error`].filter(Boolean).join(' '),
          value: shown(`${environment.name}:${setting}`, saved),
        })}
        <ErrorMessage id={`${id}-error`} error={failure} />
      </>
    );
  };
  const options = (choices: readonly string[]) =>
    choices.map((choice) => (
      <option key={choice} value={choice}>
        {choice}
      </option>
    ));
  const columns: Column<Environment>[] = [
    {
      label: 'Protected',
      cell: (environment) =>
        manages
          ? control(
              environment,
              'protected',
              ({ value, ...props }) => (
                <input
                  {...props}
                  type="checkbox"
                  aria-label="Protected"
                  checked={value === 'true'}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    void update(environment, 'protected', String(checked), { protected: checked });
                  }}
                />
              ),
              String(environment.protected),
            )
          : environment.protected
            ? 'yes'
            : 'no',
    },
    {
      label: 'Approvals',
      cell: (environment) =>
        manages
          ? control(
              environment,
              'approvals',
              (props) => (
                <select
                  {...props}
                  class="level"
                  aria-label="Approvals"
                  onChange={(event) => {
                    const approvals = Number(event.currentTarget.value);
                    void update(environment, 'approvals', event.currentTarget.value, { approvals });
                  }}
                >
                  {options(APPROVAL_CHOICES)}
                </select>
              ),
              String(environment.approvals),
            )
          : environment.approvals,
    },
    {
      label: 'Default access for members',
      cell: (environment) =>
        manages
          ? control(
              environment,
              'defaultAccess',
              (props) => (
                <select
                  {...props}
                  class="level"
                  aria-label="Default access for members"
                  onChange={(event) => {
                    const defaultAccess = event.currentTarget.value as AccessLevel;
                    void update(environment, 'defaultAccess', defaultAccess, { defaultAccess });
                  }}
                >
                  {options(accessLevels)}
                </select>
              ),
              environment.defaultAccess,
            )
          : environment.defaultAccess,
    },
  ];
  const protect = (environment: Environment) => update(environment, 'protected', 'true', { protected: true });
  const isProtected = (environment: Environment) =>
    shown(`${environment.name}:protected`, String(environment.protected)) === 'true';
  return { columns, status, protect, isProtected };
};

/** The environment whose protection the dashboard suggests while it is not protected. */
const SUGGESTED = 'production';

/**
 * One line that suggests protecting production while it is not, for owners and admins, with the
 * button that does it.
 */
export const ProtectionHint = ({
  environments,
  isProtected,
  onProtect,
}: {
  environments: readonly Environment[] | undefined;
  isProtected: (environment: Environment) => boolean;
  onProtect: (environment: Environment) => void;
}) => {
  const production = environments?.find((environment) => environment.name === SUGGESTED);
  if (!production || isProtected(production)) return null;
  return (
    <p class="hint suggestion">
      {SUGGESTED} is not protected: whoever may write there changes its secrets at once.{' '}
      <button type="button" class="secondary" onClick={() => onProtect(production)}>
        Protect {SUGGESTED}
      </button>
    </p>
  );
};
