import type { Environment, SecretInfo, SecretValue } from '@client/index';
import { DELETED_SECRET_DAYS } from '@contract/limits';
import { type ComponentChildren, Fragment } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { type Api, bodyOf } from './api';
import { counted } from './change-words';
import { ImportSecretsForm } from './import-secrets-form';
import { List } from './list';
import { projectHref } from './projects';
import { type Proposal, ProposeDialog, ProposedStatus, proposeChange, type WriteMode, writeModeOf } from './proposals';
import { RevealedValue } from './revealed-value';
import { AddSecretForm, EditSecretForm } from './secret-forms';
import { SecretHistory } from './secret-history';
import { Confirm, ErrorMessage, errorText, useAction, useLoad, When } from './ui';

type SecretEntry = SecretInfo;

/** A value read by Reveal (its references resolved), with the version it is the value of and its references. */
interface Revealed {
  readonly version: number;
  readonly value: string;
  readonly references: SecretValue['references'];
}

/**
 * Where a reference leads: the Secrets of its environment filtered by its name, in this project; the
 * home of another project (whose environments the person may not see).
 */
const referenceHref = (projectId: string, reference: SecretValue['references'][number]): string =>
  reference.projectId === projectId
    ? `${projectHref(projectId, 'secrets')}/${encodeURIComponent(reference.environment)}/${encodeURIComponent(reference.name)}`
    : projectHref(reference.projectId);

/** The references of a revealed value, each a link to the secret it names. */
const References = ({ projectId, references }: { projectId: string; references: Revealed['references'] }) =>
  references.length === 0 ? null : (
    <p class="references">
      Refers to{' '}
      {references.map((reference, index) => (
        <Fragment key={reference.reference}>
          {index > 0 && ', '}
          <a href={referenceHref(projectId, reference)}>
            <code>{reference.reference}</code>
          </a>
        </Fragment>
      ))}
    </p>
  );

/** The dialog open over the list: a form, or a secret's history. */
type Dialog =
  | { readonly kind: 'add' }
  | { readonly kind: 'import' }
  | { readonly kind: 'edit'; readonly secret: SecretEntry }
  | { readonly kind: 'history'; readonly name: string };

/** A change of one secret that carries no value (a delete, a restore), to propose in a dialog. */
interface OneChange {
  /** What it does, after "Propose change: ". */
  readonly title: string;
  readonly description: string;
  readonly proposal: Proposal;
}

/** Which secrets the list shows: the live ones, or those deleted within `DELETED_SECRET_DAYS`. */
type View = 'live' | 'deleted';

/** Ids of a row's controls, to give the focus back to them (secret names are safe in ids). */
const controlId = (action: 'edit' | 'history' | 'reveal' | 'deleted-history', name: string) => `${action}-${name}`;

/** A secret deleted within `DELETED_SECRET_DAYS`: its history stays readable and Restore brings it back. */
interface DeletedSecret {
  readonly name: string;
  readonly deletedAt: string;
  /** Who deleted it. */
  readonly deletedBy: string;
}

/** The environment's secrets deleted within `DELETED_SECRET_DAYS`, each as its delete left it. */
const loadDeleted = async (api: Api, projectId: string, environment: string): Promise<DeletedSecret[]> =>
  (
    await bodyOf(
      api.api.GET('/api/v1/projects/{projectId}/environments/{environment}/secrets', {
        params: { path: { projectId, environment }, query: { deleted: 'true' } },
      }),
    )
  ).data.map((secret) => ({
    name: secret.name,
    deletedAt: secret.updatedAt,
    deletedBy: secret.updatedBy.email ?? secret.updatedBy.userId,
  }));

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * One environment's secrets as a table: filtered by name, sorted by a column, without values; a value
 * shown only after its Reveal (a read the API records), with Copy; Edit at the version shown, History
 * with Restore, Delete after a question; Add secret and Import in dialogs. The Deleted view lists the
 * secrets deleted within `DELETED_SECRET_DAYS`, with History and Restore. What each change did is said
 * in a status line. In a protected environment each change is proposed instead, in a dialog, and waits
 * for approval (Changes); where the person only reads, no change is offered.
 */
export const EnvironmentSecrets = ({
  api,
  projectId,
  environment: settings,
  changesHref,
  initialFilter,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environment: Environment;
  /** The name to filter by first (a reference's link). */
  initialFilter?: string;
  /** Where proposed changes wait for approval: the project's Changes. */
  changesHref: string;
  /** The environment's secrets changed: its count is to be read again. */
  onChanged: () => void;
}) => {
  const environment = settings.name;
  const mode = writeModeOf(settings);
  const draftKey = `secret:${projectId}:${environment}`;
  const secrets = useLoad(() => api.list(projectId, environment));
  const [view, setView] = useState<View>('live');
  const [filter, setFilter] = useState(initialFilter ?? '');
  const [revealed, setRevealed] = useState<ReadonlyMap<string, Revealed>>(new Map());
  const [revealing, setRevealing] = useState<string>();
  const [revealErrors, setRevealErrors] = useState<ReadonlyMap<string, string>>(new Map());
  // A name kept as a draft (a sign-in forced on the person while adding) opens Add secret again.
  const [dialog, setDialog] = useState<Dialog | undefined>(() =>
    sessionStorage.getItem(`draft:${draftKey}`) === null ? undefined : { kind: 'add' },
  );
  const [deleting, setDeleting] = useState<SecretEntry>();
  const [proposing, setProposing] = useState<OneChange>();
  const [status, setStatus] = useState<ComponentChildren>('');
  // Bumped by every change made here, so that an open history and the deleted view read again.
  const [revision, setRevision] = useState(0);
  const restoring = useAction();
  // The control to move the focus to once the page shows the change (the one that had it may be gone).
  const [focusId, setFocusId] = useState<string>();
  // As soon as the control is in the page (a new secret's row comes with the list read again), before
  // the next key press can land elsewhere.
  useLayoutEffect(() => {
    const control = focusId === undefined ? null : document.getElementById(focusId);
    if (!control) return;
    control.focus();
    setFocusId(undefined);
  }, [focusId, secrets.data]);

  const changed = (message: string) => {
    setStatus(message);
    setRevision((value) => value + 1);
    secrets.reload();
    onChanged();
  };
  const without = <T,>(map: ReadonlyMap<string, T>, name: string): ReadonlyMap<string, T> =>
    new Map([...map].filter(([key]) => key !== name));
  const hide = (name: string) => setRevealed((previous) => without(previous, name));
  const reveal = async (secret: SecretEntry) => {
    // Not disabled while under way: a disabled button would drop the focus it has.
    if (revealing !== undefined) return;
    setRevealing(secret.name);
    setRevealErrors((previous) => without(previous, secret.name));
    try {
      const read = await api.get(projectId, environment, secret.name);
      const shown = { version: read.version, value: read.value, references: read.references };
      setRevealed((previous) => new Map(previous).set(secret.name, shown));
      setStatus(`Showing the value of ${secret.name}, version ${read.version}. The read is recorded.`);
      // Changed since the list was read: the list catches up, so the row and its value agree.
      if (read.version !== secret.version) secrets.reload();
    } catch (failure) {
      setRevealErrors((previous) => new Map(previous).set(secret.name, errorText(failure)));
    } finally {
      setRevealing(undefined);
    }
  };
  const propose = async (proposal: Proposal) => {
    await proposeChange(api, projectId, environment, proposal);
    setDialog(undefined);
    setProposing(undefined);
    setStatus(<ProposedStatus changesHref={changesHref} />);
    setFocusId(`${view === 'live' ? 'secrets' : 'deleted'}-title`);
  };
  const proposeRestore = (name: string, version: number) =>
    setProposing({
      title: `restore “${name}” to version ${version}`,
      description: `Once the change is approved, version ${version}’s value is written again as the newest version.`,
      proposal: { restore: [{ name, version }] },
    });
  const restoreDeleted = (name: string) =>
    !restoring.busy &&
    void restoring.run(async () => {
      const versions = await api.history(projectId, environment, name);
      const last = versions.find((version) => !version.deleted);
      if (!last) throw new Error(`${name} has no version to restore.`);
      if (mode === 'propose') return proposeRestore(name, last.version);
      const restored = await api.restore(projectId, environment, name, last.version);
      changed(`Restored ${name} (version ${last.version}) as version ${restored.version}.`);
      setFocusId('deleted-title');
    });

  const matches = (name: string) => name.toLowerCase().includes(filter.trim().toLowerCase());
  const list = secrets.data;
  const live = new Map(list?.map((secret) => [secret.name, secret.version]));
  const none = filter.trim()
    ? `No secret of ${environment} has “${filter.trim()}” in its name.`
    : view === 'live'
      ? `No secrets in ${environment} yet: add one, or import a .env file.`
      : `No secret deleted from ${environment} in the last ${DELETED_SECRET_DAYS} days.`;
  const toolbar = (
    <div class="toolbar">
      <div>
        <label for="secret-filter">Filter by name</label>
        <input
          id="secret-filter"
          type="search"
          autocomplete="off"
          spellcheck={false}
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
      </div>
      <fieldset class="segmented">
        <legend class="visually-hidden">Show</legend>
        {(['live', 'deleted'] as const).map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name="secret-view"
              value={choice}
              checked={view === choice}
              onChange={() => setView(choice)}
            />
            {choice === 'live' ? 'Live' : 'Deleted'}
          </label>
        ))}
      </fieldset>
      {mode !== 'read' && (
        <div class="toolbar-actions">
          <button type="button" onClick={() => setDialog({ kind: 'add' })}>
            Add secret
          </button>
          <button type="button" class="secondary" onClick={() => setDialog({ kind: 'import' })}>
            Import .env
          </button>
        </div>
      )}
    </div>
  );
  const badge = settings.protected && (
    <>
      {' '}
      <span class="badge protected">Protected</span>
    </>
  );
  const writeHint = <WriteHint environment={settings} mode={mode} changesHref={changesHref} />;
  const statusLine = (
    <p class="status" role="status">
      {status}
    </p>
  );
  const editing = dialog?.kind === 'edit' ? dialog.secret : undefined;
  const historyOf = dialog?.kind === 'history' ? dialog.name : undefined;
  return (
    <>
      {view === 'live' ? (
        <List
          id="secrets"
          title={
            <>
              Secrets in {environment}
              {badge}
            </>
          }
          rows={list?.filter((secret) => matches(secret.name))}
          error={secrets.error}
          empty={none}
          rowKey={(secret) => secret.name}
          tableClass="secrets"
          initialSort={{ column: 'Name', descending: false }}
          columns={[
            { label: 'Name', cell: (secret) => secret.name, compare: byName },
            {
              label: 'Value',
              className: 'value',
              cell: (secret) => {
                const shown = revealed.get(secret.name);
                return (
                  <>
                    {shown?.version === secret.version ? (
                      <>
                        <RevealedValue id={`value-${secret.name}`} value={shown.value} />
                        <References projectId={projectId} references={shown.references} />
                      </>
                    ) : (
                      <span class="concealed">Hidden</span>
                    )}
                    <ErrorMessage id={`reveal-error-${secret.name}`} error={revealErrors.get(secret.name)} />
                  </>
                );
              },
            },
            { label: 'Version', cell: (secret) => secret.version, compare: (a, b) => a.version - b.version },
            {
              label: 'Last changed',
              cell: (secret) => (
                <>
                  <span class="who-changed">{secret.updatedBy.email ?? secret.updatedBy.userId}</span>
                  <span class="note">
                    <When at={secret.updatedAt} otherwise="" />
                  </span>
                </>
              ),
              compare: (a, b) => a.updatedAt.localeCompare(b.updatedAt),
            },
          ]}
          actions={(secret) => {
            const shown = revealed.get(secret.name)?.version === secret.version;
            return (
              <div class="row-buttons">
                <button
                  type="button"
                  class="secondary"
                  id={controlId('reveal', secret.name)}
                  aria-busy={revealing === secret.name}
                  onClick={() => (shown ? hide(secret.name) : void reveal(secret))}
                >
                  {shown ? 'Hide' : 'Reveal'}
                </button>
                {mode !== 'read' && (
                  <button
                    type="button"
                    class="secondary"
                    id={controlId('edit', secret.name)}
                    aria-haspopup="dialog"
                    onClick={() => setDialog({ kind: 'edit', secret })}
                  >
                    Edit
                  </button>
                )}
                <button
                  type="button"
                  class="secondary"
                  id={controlId('history', secret.name)}
                  aria-haspopup="dialog"
                  onClick={() => setDialog({ kind: 'history', name: secret.name })}
                >
                  History
                </button>
                {mode !== 'read' && (
                  <button
                    type="button"
                    class="danger"
                    aria-haspopup="dialog"
                    onClick={() =>
                      mode === 'propose'
                        ? setProposing({
                            title: `delete “${secret.name}”`,
                            description: `Once the change is approved, it leaves the list and exports; for ${DELETED_SECRET_DAYS} days its Restore can bring it back.`,
                            proposal: { delete: [secret.name], expectedVersions: { [secret.name]: secret.version } },
                          })
                        : setDeleting(secret)
                    }
                  >
                    Delete
                  </button>
                )}
              </div>
            );
          }}
        >
          <p class="hint">
            Values stay hidden until you reveal one; each Reveal is recorded in the project’s activity.
          </p>
          {writeHint}
          {toolbar}
          {statusLine}
        </List>
      ) : (
        <DeletedList
          key={revision}
          load={() => loadDeleted(api, projectId, environment)}
          environment={environment}
          badge={badge}
          matches={matches}
          none={none}
          onHistory={(name) => setDialog({ kind: 'history', name })}
          onRestore={mode === 'read' ? undefined : restoreDeleted}
        >
          {writeHint}
          {toolbar}
          {statusLine}
          <ErrorMessage id="restore-error" error={restoring.error} />
        </DeletedList>
      )}
      {historyOf !== undefined && (
        <SecretHistory
          key={historyOf}
          api={api}
          projectId={projectId}
          environment={environment}
          name={historyOf}
          revision={revision}
          mode={mode}
          onRestored={(restored, from) => {
            changed(`Restored version ${from} of ${restored.name} as version ${restored.version}.`);
          }}
          onPropose={(version) => {
            setDialog(undefined);
            proposeRestore(historyOf, version);
          }}
          onClose={() => {
            setDialog(undefined);
            // Its row's History, or the list's heading when the row is gone (restored, or deleted).
            const id = controlId(view === 'live' ? 'history' : 'deleted-history', historyOf);
            setFocusId(document.getElementById(id) ? id : `${view === 'live' ? 'secrets' : 'deleted'}-title`);
          }}
        />
      )}
      {editing && (
        <EditSecretForm
          key={editing.name}
          api={api}
          projectId={projectId}
          environment={environment}
          name={editing.name}
          version={editing.version}
          propose={mode === 'propose' ? propose : undefined}
          onConflict={() => secrets.reload()}
          onClose={() => {
            setDialog(undefined);
            setFocusId(controlId('edit', editing.name));
          }}
          onSaved={(saved) => {
            setDialog(undefined);
            changed(`Saved ${saved.name} as version ${saved.version}.`);
            setFocusId(controlId('edit', saved.name));
          }}
        />
      )}
      {dialog?.kind === 'add' && (
        <AddSecretForm
          api={api}
          projectId={projectId}
          environment={environment}
          draftKey={draftKey}
          propose={mode === 'propose' ? propose : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={(saved) => {
            setDialog(undefined);
            setView('live');
            changed(`Saved ${saved.name} as version ${saved.version}.`);
            setFocusId(controlId('reveal', saved.name));
          }}
        />
      )}
      {dialog?.kind === 'import' && (
        <ImportSecretsForm
          api={api}
          projectId={projectId}
          environment={environment}
          live={live}
          propose={mode === 'propose' ? propose : undefined}
          onConflict={() => secrets.reload()}
          onClose={() => setDialog(undefined)}
          onImported={(count) => {
            setDialog(undefined);
            setView('live');
            changed(`Imported ${count} ${count === 1 ? 'secret' : 'secrets'} into ${environment}.`);
            setFocusId('secrets-title');
          }}
        />
      )}
      {deleting && (
        <Confirm
          title={`Delete “${deleting.name}”?`}
          action="Delete"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api.delete(projectId, environment, deleting.name);
            hide(deleting.name);
            changed(`Deleted ${deleting.name}. The Deleted view lists it, with History and Restore.`);
            setFocusId('secrets-title');
          }}
        >
          <p>
            It leaves the list and exports at once. For {DELETED_SECRET_DAYS} days the Deleted view lists it, and its
            Restore brings it back.
          </p>
        </Confirm>
      )}
      {proposing && (
        <ProposeDialog
          title={proposing.title}
          onPropose={(note) => propose({ ...proposing.proposal, ...note })}
          onClose={() => {
            setProposing(undefined);
            setFocusId(`${view === 'live' ? 'secrets' : 'deleted'}-title`);
          }}
        >
          <p>{proposing.description}</p>
        </ProposeDialog>
      )}
    </>
  );
};

/** What the person may do here, when it is not simply writing: only read, or propose (protected). */
const WriteHint = ({
  environment,
  mode,
  changesHref,
}: {
  environment: Environment;
  mode: WriteMode;
  changesHref: string;
}) => {
  if (mode === 'read') {
    return <p class="hint">Your access to {environment.name} is read: you can reveal its secrets, not change them.</p>;
  }
  if (!environment.protected) return null;
  return (
    <p class="hint">
      {environment.name} is protected: a change is proposed, and applied once it has{' '}
      {counted(environment.approvals, 'approval')} (<a href={changesHref}>Changes</a>).
    </p>
  );
};

/** The secrets deleted within `DELETED_SECRET_DAYS`, each with History and Restore (where the person writes). */
const DeletedList = ({
  load,
  environment,
  badge,
  matches,
  none,
  onHistory,
  onRestore,
  children,
}: {
  load: () => Promise<DeletedSecret[]>;
  environment: string;
  /** Beside the title: whether the environment is protected. */
  badge: ComponentChildren;
  matches: (name: string) => boolean;
  none: string;
  onHistory: (name: string) => void;
  /** None where the person only reads. */
  onRestore: ((name: string) => void) | undefined;
  children: ComponentChildren;
}) => {
  const deleted = useLoad(load);
  return (
    <List
      id="deleted"
      title={
        <>
          Deleted from {environment}
          {badge}
        </>
      }
      rows={deleted.data?.filter((entry) => matches(entry.name))}
      error={deleted.error}
      empty={none}
      rowKey={(entry) => entry.name}
      initialSort={{ column: 'Deleted', descending: true }}
      columns={[
        { label: 'Name', cell: (entry) => entry.name, compare: byName },
        {
          label: 'Deleted',
          cell: (entry) => <When at={entry.deletedAt} otherwise="" />,
          compare: (a, b) => a.deletedAt.localeCompare(b.deletedAt),
        },
        { label: 'By', className: 'who-changed', cell: (entry) => entry.deletedBy },
      ]}
      actions={(entry) => (
        <div class="row-buttons">
          <button
            type="button"
            class="secondary"
            id={controlId('deleted-history', entry.name)}
            aria-haspopup="dialog"
            onClick={() => onHistory(entry.name)}
          >
            History
          </button>
          {onRestore && (
            <button type="button" class="secondary" onClick={() => onRestore(entry.name)}>
              Restore
            </button>
          )}
        </div>
      )}
    >
      <p class="hint">
        Deleted in the last {DELETED_SECRET_DAYS} days. Restore brings back the value it had before the delete.
      </p>
      {children}
    </List>
  );
};
