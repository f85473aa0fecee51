import type { SecretInfo } from '@client/index';
import { DELETED_SECRET_DAYS } from '@contract/limits';
import { useLayoutEffect, useState } from 'preact/hooks';
import type { Api } from './api';
import { ImportSecretsForm } from './import-secrets-form';
import { AddSecretForm, EditSecretForm } from './secret-forms';
import { SecretHistory } from './secret-history';
import { Confirm, ErrorMessage, errorText, useLoad, When } from './ui';

type SecretEntry = SecretInfo;

/** A value read by Reveal, with the version it is the value of. */
interface Revealed {
  readonly version: number;
  readonly value: string;
}

/** The panel open beside the list: a secret's edit form or its history. */
type Panel =
  | { readonly kind: 'edit'; readonly secret: SecretEntry }
  | { readonly kind: 'history'; readonly name: string };

/** Ids of a row's controls, to give the focus back to them (secret names are safe in ids). */
const controlId = (action: 'edit' | 'history' | 'reveal', name: string) => `${action}-${name}`;

/**
 * One environment's secrets: the list without values, a value shown only after its Reveal (a read
 * the API records), Edit at the version shown, History with Restore, Delete after a question, and the
 * forms to add one and to import a .env. What each change did is said in a status line.
 */
export const EnvironmentSecrets = ({
  api,
  projectId,
  environment,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environment: string;
  /** The environment's secrets changed: its count is to be read again. */
  onChanged: () => void;
}) => {
  const secrets = useLoad(() => api.list(projectId, environment));
  const [revealed, setRevealed] = useState<Readonly<Record<string, Revealed>>>({});
  const [revealing, setRevealing] = useState<string>();
  const [revealErrors, setRevealErrors] = useState<Readonly<Record<string, string>>>({});
  const [panel, setPanel] = useState<Panel>();
  const [deleting, setDeleting] = useState<SecretEntry>();
  const [status, setStatus] = useState('');
  // Bumped by every change made here, so that an open history reads its versions again.
  const [revision, setRevision] = useState(0);
  // The control to move the focus to once the page shows the change (the one that had it may be gone).
  const [focusId, setFocusId] = useState<string>();
  // As soon as the change is in the page, before the next key press can land elsewhere.
  useLayoutEffect(() => {
    if (focusId === undefined) return;
    document.getElementById(focusId)?.focus();
    setFocusId(undefined);
  }, [focusId]);

  const changed = (message: string) => {
    setStatus(message);
    setRevision((value) => value + 1);
    secrets.reload();
    onChanged();
  };
  const hide = (name: string) =>
    setRevealed((previous) => Object.fromEntries(Object.entries(previous).filter(([key]) => key !== name)));
  const reveal = async (secret: SecretEntry) => {
    // Not disabled while under way: a disabled button would drop the focus it has.
    if (revealing !== undefined) return;
    setRevealing(secret.name);
    setRevealErrors((previous) => ({ ...previous, [secret.name]: '' }));
    try {
      const read = await api.get(projectId, environment, secret.name);
      setRevealed((previous) => ({
        ...previous,
        [secret.name]: { version: read.version, value: read.value },
      }));
      setStatus(`Showing the value of ${secret.name}, version ${read.version}. The read is recorded.`);
      // Changed since the list was read: the list catches up, so the row and its value agree.
      if (read.version !== secret.version) secrets.reload();
    } catch (failure) {
      setRevealErrors((previous) => ({ ...previous, [secret.name]: errorText(failure) }));
    } finally {
      setRevealing(undefined);
    }
  };

  const list = secrets.data;
  const editing = panel?.kind === 'edit' ? panel.secret : undefined;
  const historyOf = panel?.kind === 'history' ? panel.name : undefined;
  return (
    <>
      <section aria-labelledby="secrets-title">
        <h2 id="secrets-title" tabIndex={-1}>
          Secrets in {environment}
        </h2>
        <p class="hint">Values stay hidden until you reveal one; each Reveal is recorded in the project’s activity.</p>
        <p class="status" role="status">
          {status}
        </p>
        <ErrorMessage id="secrets-error" error={secrets.error} />
        {list === undefined ? (
          !secrets.error && <p>Loading…</p>
        ) : list.length === 0 ? (
          <p>Add one below, or import a .env file.</p>
        ) : (
          <table class="stack secrets">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Version</th>
                <th scope="col">Last changed</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((secret) => {
                const shown = revealed[secret.name];
                const value = shown?.version === secret.version ? shown.value : undefined;
                const revealError = revealErrors[secret.name];
                return (
                  <tr key={secret.name}>
                    <th scope="row" data-label="Name">
                      {secret.name}
                    </th>
                    <td data-label="Value" class="value">
                      {value === undefined ? <span class="concealed">Hidden</span> : <code>{value}</code>}
                      <ErrorMessage id={`reveal-error-${secret.name}`} error={revealError || undefined} />
                    </td>
                    <td data-label="Version">{secret.version}</td>
                    <td data-label="Last changed">
                      <span class="who-changed">{secret.updatedBy.email ?? secret.updatedBy.userId}</span>
                      <span class="note">
                        <When at={secret.updatedAt} otherwise="" />
                      </span>
                    </td>
                    <td class="row-actions">
                      <div class="row-buttons">
                        <button
                          type="button"
                          class="secondary"
                          id={controlId('reveal', secret.name)}
                          aria-busy={revealing === secret.name}
                          onClick={() => (value === undefined ? void reveal(secret) : hide(secret.name))}
                        >
                          {value === undefined ? 'Reveal' : 'Hide'}
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          id={controlId('edit', secret.name)}
                          aria-expanded={editing?.name === secret.name}
                          aria-controls={editing?.name === secret.name ? 'edit-secret-form' : undefined}
                          onClick={() => setPanel({ kind: 'edit', secret })}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          id={controlId('history', secret.name)}
                          aria-expanded={historyOf === secret.name}
                          aria-controls={historyOf === secret.name ? 'secret-history' : undefined}
                          onClick={() => setPanel({ kind: 'history', name: secret.name })}
                        >
                          History
                        </button>
                        <button type="button" class="danger" onClick={() => setDeleting(secret)}>
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {historyOf !== undefined && (
        <SecretHistory
          key={historyOf}
          api={api}
          projectId={projectId}
          environment={environment}
          name={historyOf}
          revision={revision}
          onRestored={(restored, from) => {
            changed(`Restored version ${from} of ${restored.name} as version ${restored.version}.`);
          }}
          onClose={() => {
            setPanel(undefined);
            const row = list?.some((secret) => secret.name === historyOf);
            setFocusId(row ? controlId('history', historyOf) : 'secrets-title');
          }}
        />
      )}
      {editing ? (
        <EditSecretForm
          key={editing.name}
          api={api}
          projectId={projectId}
          environment={environment}
          name={editing.name}
          version={editing.version}
          onConflict={() => secrets.reload()}
          onCancel={() => {
            setPanel(undefined);
            setFocusId(controlId('edit', editing.name));
          }}
          onSaved={(saved) => {
            setPanel(undefined);
            changed(`Saved ${saved.name} as version ${saved.version}.`);
            setFocusId(controlId('edit', saved.name));
          }}
        />
      ) : (
        <AddSecretForm
          api={api}
          projectId={projectId}
          environment={environment}
          draftKey={`secret:${projectId}:${environment}`}
          onSaved={(saved) => changed(`Saved ${saved.name} as version ${saved.version}.`)}
        />
      )}
      <ImportSecretsForm
        api={api}
        projectId={projectId}
        environment={environment}
        onImported={(count) => changed(`Imported ${count} ${count === 1 ? 'secret' : 'secrets'} into ${environment}.`)}
      />
      {deleting && (
        <Confirm
          title={`Delete “${deleting.name}”?`}
          action="Delete"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api.delete(projectId, environment, deleting.name);
            hide(deleting.name);
            if (editing?.name === deleting.name) setPanel(undefined);
            changed(`Deleted ${deleting.name}.`);
            setFocusId('secrets-title');
          }}
        >
          <p>
            It leaves the list and exports at once. Its history keeps its versions for {DELETED_SECRET_DAYS} days, and
            Restore there brings it back.
          </p>
        </Confirm>
      )}
    </>
  );
};
