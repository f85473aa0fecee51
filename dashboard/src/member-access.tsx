import type { Environment } from '@client/index';
import { type AccessLevel, accessLevels } from '@contract/roles';
import type { RouteAnswer } from '@contract/route';
import type { listMembersRoute } from '@contract/routes/list-members';
import type { Api } from './api';
import type { Column } from './list';
import { ErrorMessage, useSaveOnChange } from './ui';

/** A member as the list answers them, with their access to each environment. */
export type Member = RouteAnswer<typeof listMembersRoute>['data'][number];

/** A level of access in a sentence: `read access`, `no access`. */
export const accessWords = (level: AccessLevel): string => (level === 'none' ? 'no access' : `${level} access`);

/** One cell of the matrix: a member in an environment. */
const cellKey = (member: Member, environment: string) => `${member.userId}:${environment}`;

/** A member's level in an environment: the one set for them, or else the environment's default. */
const levelOf = (member: Member, environment: Environment): AccessLevel =>
  (Object.hasOwn(member.access, environment.name) ? member.access[environment.name] : undefined) ??
  environment.defaultAccess;

/**
 * The members' access as columns of the members list, one per environment: owners and admins write
 * every environment (shown, not offered); a plain member's level is a choice for owners and admins
 * (`manages`), saved at once with the API's words beside it when refused, and plain text for the
 * others. `status` says what the last save did.
 */
export const useAccessColumns = ({
  api,
  projectId,
  environments,
  manages,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  manages: boolean;
  /** A level was saved: the members are to be read again. */
  onChanged: () => void;
}): { columns: Column<Member>[]; status: string } => {
  const { shown, errorOf, status, save } = useSaveOnChange();
  const choose = (member: Member, environment: string, level: AccessLevel) =>
    save(cellKey(member, environment), level, async () => {
      await api.api.PUT('/api/v1/projects/{projectId}/members/{email}/access', {
        params: { path: { projectId, email: member.email } },
        body: { access: { [environment]: level } },
      });
      onChanged();
      return `${member.email} now has ${accessWords(level)} to ${environment}.`;
    });
  const columns = (environments ?? []).map(
    (environment): Column<Member> => ({
      label: environment.name,
      cell: (member) => {
        const key = cellKey(member, environment.name);
        const level = shown(key, levelOf(member, environment));
        if (member.role !== 'member') return 'write';
        if (!manages) return level;
        const id = `access-${member.userId}-${environment.name}`;
        const failure = errorOf(key);
        return (
          <>
            <select
              id={id}
              class="level"
              aria-label={`Access of ${member.email} to ${environment.name}`}
              aria-invalid={failure !== undefined}
              aria-describedby={failure === undefined ? undefined : `${id}-error`}
              value={level}
              onChange={(event) => void choose(member, environment.name, event.currentTarget.value as AccessLevel)}
            >
              {accessLevels.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
            <ErrorMessage id={`${id}-error`} error={failure} />
          </>
        );
      },
    }),
  );
  return { columns, status };
};
