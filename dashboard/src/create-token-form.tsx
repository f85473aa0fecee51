import type { ValidationDetail } from '@contract/errors';
import { MAX_ALLOWED_IPS, MAX_TTL_DAYS } from '@contract/limits';
import { type Scope, scopes } from '@contract/scopes';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { describedBy, fieldText } from './field-error';
import type { MeState } from './me';
import type { ProjectEntry } from './projects';
import type { NewToken } from './token-types';
import { detailText, ErrorMessage, useAction, useDraft } from './ui';

/** The create form as typed, kept across a sign-in (a session that expires keeps the draft). */
interface TokenDraft {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly days: string;
  readonly never: boolean;
  /** Where the token works from: the address the API sees now, or the listed ones. */
  readonly from: 'this' | 'list';
  /** The list as typed: one address or CIDR per line. */
  readonly addresses: string;
  /** Which projects the token reaches: all of the user's, or the chosen ones. */
  readonly reach: 'all' | 'only';
  /** The chosen projects, each with its environments as typed (comma-separated; blank: all of them). */
  readonly chosen: readonly ChosenProject[];
}

/** A project ticked in the form, with its environments as typed. */
interface ChosenProject {
  readonly projectId: string;
  readonly environments: string;
}

const EMPTY_DRAFT: TokenDraft = {
  name: '',
  scopes: [],
  days: '30',
  never: false,
  from: 'this',
  addresses: '',
  reach: 'all',
  chosen: [],
};

/** The typed environments as the API takes them: trimmed, blanks dropped; none typed: all (omitted). */
const environmentList = (text: string): string[] | undefined => {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 ? names : undefined;
};

/** One entry of the typed list: the text the API gets, and its line in the field (from 1). */
export interface AddressLine {
  readonly entry: string;
  readonly line: number;
}

/** The typed list as the API takes it (each line trimmed, blank lines dropped), each with its line. */
export const addressLines = (text: string): AddressLine[] =>
  text
    .split('\n')
    .map((line, index) => ({ entry: line.trim(), line: index + 1 }))
    .filter(({ entry }) => entry !== '');

/**
 * The API's refusals of a list of addresses, each by its line and entry as typed (`sent`: the list as
 * last sent), announced as they appear; nothing without one.
 */
export const AddressErrors = ({
  id,
  details,
  sent,
}: {
  id: string;
  details: readonly ValidationDetail[];
  sent: readonly AddressLine[];
}) =>
  details.length > 0 ? (
    <div id={id} class="error" role="alert">
      <ul>
        {details.map((detail) => {
          const sentLine = sent[Number(detail.path.split('.')[1])];
          return (
            <li key={detail.path}>
              {sentLine === undefined ? (
                detailText(detail)
              ) : (
                <>
                  Line {sentLine.line}, <code>{sentLine.entry}</code>: {detail.message}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  ) : null;

/**
 * This machine's loopback addresses. Locally, a browser may reach the service over either (`localhost`
 * is `::1` to one program and `127.0.0.1` to another, e.g. the browser and curl), so a token made for
 * "this address" when the API sees a loopback one works from both; deployed, the API never sees one.
 */
export const LOOPBACK = ['127.0.0.1', '::1'] as const;

export const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && (LOOPBACK as readonly string[]).includes(address);

/** Where a new token works from: the creating address (this machine's both loopback ones locally), or a typed list. */
export const WorksFrom = ({
  ids,
  label,
  hint,
  from,
  addresses,
  onChange,
  sourceIp,
  meError,
  errors,
  sent,
}: {
  /** `field`: the prefix of the radios' name and the list's ids; `me`: the id of the caller's address's error. */
  ids: { readonly field: string; readonly me: string };
  label: string;
  hint: ComponentChildren;
  from: 'this' | 'list';
  addresses: string;
  onChange: (change: { from?: 'this' | 'list'; addresses?: string }) => void;
  sourceIp: string | undefined;
  meError: string | undefined;
  errors: readonly ValidationDetail[];
  sent: readonly AddressLine[];
}) => (
  <fieldset>
    <legend>Works from</legend>
    <label class="check">
      <input
        type="radio"
        name={`${ids.field}-from`}
        checked={from === 'this'}
        onChange={() => onChange({ from: 'this' })}
      />
      {isLoopback(sourceIp) ? `This machine (${LOOPBACK.join(' and ')})` : `This address (${sourceIp ?? '…'})`}
    </label>
    <label class="check">
      <input
        type="radio"
        name={`${ids.field}-from`}
        checked={from === 'list'}
        onChange={() => onChange({ from: 'list' })}
      />
      These addresses
    </label>
    <ErrorMessage id={ids.me} error={meError} />
    {from === 'list' && (
      <>
        <label for={`${ids.field}-addresses`}>{label}</label>
        <p id={`${ids.field}-addresses-hint`} class="hint">
          {hint}
        </p>
        <textarea
          id={`${ids.field}-addresses`}
          rows={3}
          required
          spellcheck={false}
          value={addresses}
          aria-invalid={errors.length > 0}
          aria-describedby={describedBy(
            `${ids.field}-addresses-hint`,
            errors.length > 0 && `${ids.field}-addresses-error`,
          )}
          onInput={(event) => onChange({ addresses: event.currentTarget.value })}
        />
        <AddressErrors id={`${ids.field}-addresses-error`} details={errors} sent={sent} />
      </>
    )}
  </fieldset>
);

/**
 * The create form: name, scopes, lifetime, where the token works from and which projects it reaches;
 * each refusal of the API is shown beside its field (every refused address by its line, every refused
 * project entry by its project's name).
 */
export const CreateTokenForm = ({
  api,
  me,
  projects,
  onCreated,
}: {
  api: Api;
  /** The caller as the API sees them: the address it sees, which the dashboard cannot know without asking. */
  me: MeState;
  /** The user's projects, to limit a token to (undefined while they load). */
  projects: readonly ProjectEntry[] | undefined;
  onCreated: (token: NewToken) => void;
}) => {
  const [draft, setDraft, clearDraft] = useDraft<TokenDraft>('token', EMPTY_DRAFT);
  const { busy, error, detailsAt, run } = useAction(['name', 'scopes', 'ttlDays', 'allowedIps', 'projects']);
  const nameError = fieldText(detailsAt('name'));
  const scopesError = fieldText(detailsAt('scopes'));
  const daysError = fieldText(detailsAt('ttlDays'));
  // The projects as last sent, so that an error about `projects.<i>` can name its project.
  const [sentProjects, setSentProjects] = useState<readonly string[]>([]);
  const projectErrors = detailsAt('projects');
  const chosen = draft.chosen ?? [];
  const choice = (projectId: string) => chosen.find((entry) => entry.projectId === projectId);
  const choose = (projectId: string, on: boolean) =>
    setDraft({
      ...draft,
      chosen: on
        ? [...chosen, { projectId, environments: '' }]
        : chosen.filter((entry) => entry.projectId !== projectId),
    });
  const setEnvironments = (projectId: string, environments: string) =>
    setDraft({
      ...draft,
      chosen: chosen.map((entry) => (entry.projectId === projectId ? { projectId, environments } : entry)),
    });
  const projectName = (projectId: string | undefined) =>
    projects?.find((project) => project.projectId === projectId)?.name ?? projectId;
  // The list as last sent, so that an error about `allowedIps.<i>` can quote its entry and line.
  const [sent, setSent] = useState<readonly AddressLine[]>([]);
  const sourceIp = me.data?.sourceIp;
  const addressErrors = detailsAt('allowedIps');
  const toggleScope = (scope: Scope, on: boolean) =>
    setDraft({ ...draft, scopes: on ? [...draft.scopes, scope] : draft.scopes.filter((held) => held !== scope) });
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const listed = draft.from === 'list' ? addressLines(draft.addresses) : undefined;
      setSent(listed ?? []);
      const allowedIps = listed?.map(({ entry }) => entry) ?? (isLoopback(sourceIp) ? [...LOOPBACK] : undefined);
      // In the order of the list shown, so that the details' indexes name the projects as listed.
      const limited =
        draft.reach === 'only'
          ? (projects ?? [])
              .map((project) => choice(project.projectId))
              .filter((entry): entry is ChosenProject => entry !== undefined)
              .map((entry) => {
                const environments = environmentList(entry.environments);
                return environments ? { projectId: entry.projectId, environments } : { projectId: entry.projectId };
              })
          : undefined;
      setSentProjects(limited?.map((entry) => entry.projectId) ?? []);
      const body = {
        name: draft.name,
        scopes: scopes.filter((scope) => draft.scopes.includes(scope)),
        ttlDays: draft.never ? null : Number(draft.days),
        ...(allowedIps && { allowedIps }),
        ...(limited && { projects: limited }),
      };
      const created = await dataOf(api.api.POST('/api/v1/tokens', { body }));
      clearDraft();
      onCreated(created);
    });
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-token-title" aria-describedby="create-token-error">
      <h2 id="create-token-title">Create a token</h2>
      <label for="token-name">Name</label>
      <input
        id="token-name"
        required
        maxLength={100}
        value={draft.name}
        aria-invalid={nameError !== undefined}
        aria-describedby={describedBy(nameError !== undefined && 'token-name-error')}
        onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
      />
      <ErrorMessage id="token-name-error" error={nameError} />
      <fieldset aria-describedby={describedBy(scopesError !== undefined && 'token-scopes-error')}>
        <legend>Scopes</legend>
        {scopes.map((scope) => (
          <label class="check" key={scope}>
            <input
              type="checkbox"
              checked={draft.scopes.includes(scope)}
              aria-invalid={scopesError !== undefined}
              aria-describedby={describedBy(scopesError !== undefined && 'token-scopes-error')}
              onChange={(event) => toggleScope(scope, event.currentTarget.checked)}
            />
            {scope}
          </label>
        ))}
        <ErrorMessage id="token-scopes-error" error={scopesError} />
      </fieldset>
      <div class="expiry">
        <div>
          <label for="token-days">Expires in days</label>
          <input
            id="token-days"
            type="number"
            min={1}
            max={MAX_TTL_DAYS}
            required={!draft.never}
            disabled={draft.never}
            value={draft.days}
            aria-invalid={daysError !== undefined}
            aria-describedby={describedBy(daysError !== undefined && 'token-days-error')}
            onInput={(event) => setDraft({ ...draft, days: event.currentTarget.value })}
          />
          <ErrorMessage id="token-days-error" error={daysError} />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.never}
            onChange={(event) => setDraft({ ...draft, never: event.currentTarget.checked })}
          />
          Never expires
        </label>
      </div>
      <WorksFrom
        ids={{ field: 'token', me: 'me-error' }}
        label="Addresses"
        hint={<>One IP address or network (CIDR) per line, up to {MAX_ALLOWED_IPS}, e.g. 203.0.113.7 or 10.0.0.0/24.</>}
        from={draft.from}
        addresses={draft.addresses}
        onChange={(change) => setDraft({ ...draft, ...change })}
        sourceIp={sourceIp}
        meError={me.error}
        errors={addressErrors}
        sent={sent}
      />
      <fieldset aria-describedby={projectErrors.length > 0 ? 'token-projects-error' : undefined}>
        <legend>Projects</legend>
        <label class="check">
          <input
            type="radio"
            name="token-reach"
            checked={draft.reach !== 'only'}
            onChange={() => setDraft({ ...draft, reach: 'all' })}
          />
          All my projects
        </label>
        <label class="check">
          <input
            type="radio"
            name="token-reach"
            checked={draft.reach === 'only'}
            onChange={() => setDraft({ ...draft, reach: 'only' })}
          />
          Only these projects
        </label>
        {draft.reach === 'only' &&
          (projects === undefined ? (
            <p>Loading…</p>
          ) : projects.length === 0 ? (
            <p>You belong to no project yet.</p>
          ) : (
            <>
              <p id="token-projects-hint" class="hint">
                Tick each project the token may reach. Its environments: empty for all of them, or names separated by
                commas.
              </p>
              <ul class="token-projects">
                {projects.map((project) => {
                  const picked = choice(project.projectId);
                  const fieldId = `token-environments-${project.projectId}`;
                  return (
                    <li key={project.projectId}>
                      <label class="check">
                        <input
                          type="checkbox"
                          checked={picked !== undefined}
                          onChange={(event) => choose(project.projectId, event.currentTarget.checked)}
                        />
                        {project.name}
                      </label>
                      {picked && (
                        <>
                          <label for={fieldId}>
                            Environments<span class="visually-hidden"> of {project.name}</span>
                          </label>
                          <input
                            id={fieldId}
                            spellcheck={false}
                            aria-describedby="token-projects-hint"
                            placeholder="all; or e.g. staging, production"
                            value={picked.environments}
                            onInput={(event) => setEnvironments(project.projectId, event.currentTarget.value)}
                          />
                        </>
                      )}
                    </li>
                  );
                })}
              </ul>
            </>
          ))}
        {projectErrors.length > 0 && (
          <div id="token-projects-error" class="error" role="alert">
            <ul>
              {projectErrors.map((detail) => {
                const index = detail.path.split('.')[1];
                const named = index === undefined ? undefined : projectName(sentProjects[Number(index)]);
                return (
                  <li key={detail.path}>{named === undefined ? detailText(detail) : `${named}: ${detail.message}`}</li>
                );
              })}
            </ul>
          </div>
        )}
      </fieldset>
      <ErrorMessage id="create-token-error" error={error} />
      <button type="submit" disabled={busy}>
        Create token
      </button>
    </form>
  );
};
