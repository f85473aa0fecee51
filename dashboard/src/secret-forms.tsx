import type { SecretInfo, SecretVersion } from '@client/index';
import { ErrorText, type ValidationDetail } from '@contract/errors';
import { useRef, useState } from 'preact/hooks';
import { type Api, ApiError } from './api';
import { NoteField, noteOf, PROPOSE, type Proposal } from './proposals';
import { ErrorMessage, Modal, useAction, useDraft, When } from './ui';

/** A secret as a write answers it: its new version, never its value. */
export type WrittenSecret = SecretInfo;

const utf8 = new TextEncoder();

/**
 * The API's words about one field, one detail after another; about a value, with the value's own size
 * beside the limit the API states, so the person knows how much to cut.
 */
const fieldText = (details: readonly ValidationDetail[], value?: string): string | undefined => {
  if (details.length === 0) return undefined;
  const words = details.map((detail) => detail.message).join(' ');
  return value === undefined ? words : `${words}: this one has ${utf8.encode(value).length} bytes.`;
};

/** `aria-describedby` of a field: its hint, and its error while there is one. */
const describedBy = (...ids: (string | false | undefined)[]): string | undefined =>
  ids.filter((id): id is string => typeof id === 'string').join(' ') || undefined;

/**
 * Adds a secret, in a dialog: a PUT that may only create (`expectedVersion: 0`), so that a name already
 * in use is refused rather than overwritten; in a protected environment (`propose`), a change request
 * to create it, with an optional note. The name is kept as a draft across a forced sign-in; the value
 * is not (values stay out of the tab's storage), and the form says so when it comes back with a kept
 * name. Cancel forgets the draft.
 */
export const AddSecretForm = ({
  api,
  projectId,
  environment,
  draftKey,
  propose,
  onSaved,
  onClose,
}: {
  api: Api;
  projectId: string;
  environment: string;
  draftKey: string;
  /** Proposes the secret rather than writing it: the environment is protected. */
  propose?: ((proposal: Proposal) => Promise<void>) | undefined;
  onSaved: (secret: WrittenSecret) => void;
  onClose: () => void;
}) => {
  const [name, setName, clearName] = useDraft(draftKey, '');
  // A name kept from before a sign-in (or a reload): its value was not kept.
  const [restored] = useState(name !== '');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const { busy, formError, failure, detailsAt, run } = useAction(['name', 'value', 'note']);
  const dialog = useRef<HTMLDialogElement>(null);
  // A taken name is the name's problem: it is said beside the name, not under the form.
  const taken = failure?.status === 409 && failure.error === ErrorText.secretConflict;
  const nameError = taken ? failure.error : fieldText(detailsAt('name'));
  const valueError = fieldText(detailsAt('value'), value);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      if (propose) {
        await propose({ set: { [name]: value }, expectedVersions: { [name]: 0 }, ...noteOf(note) });
        clearName();
        return;
      }
      const saved = await api.set(projectId, environment, name, value, { expectedVersion: 0 });
      clearName();
      onSaved(saved.secret);
    });
  };
  const cancel = () => {
    clearName();
    dialog.current?.close();
  };
  return (
    <Modal labelledBy="add-secret-title" wide onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="add-secret-title">
        <h2 id="add-secret-title">{propose ? `${PROPOSE}: add secret` : 'Add secret'}</h2>
        <p class="hint">{propose ? `To ${environment}, once the change is approved.` : `To ${environment}.`}</p>
        <label for="secret-name">Name</label>
        <p id="secret-name-hint" class="hint">
          As an environment variable’s: letters, digits and _, such as DATABASE_URL.
        </p>
        <input
          id="secret-name"
          required
          maxLength={128}
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={name}
          aria-invalid={nameError !== undefined}
          aria-describedby={describedBy('secret-name-hint', nameError !== undefined && 'secret-name-error')}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <ErrorMessage id="secret-name-error" error={nameError} />
        {taken && <p class="hint">A secret of this name exists here: change it with its Edit.</p>}
        <label for="secret-value">Value</label>
        {restored && value === '' && (
          <p id="secret-value-kept" class="warning">
            The value was not kept: values never go into this browser’s storage. Type it again.
          </p>
        )}
        <textarea
          id="secret-value"
          rows={3}
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={value}
          aria-invalid={valueError !== undefined}
          aria-describedby={describedBy(
            restored && value === '' && 'secret-value-kept',
            valueError !== undefined && 'secret-value-error',
          )}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <ErrorMessage id="secret-value-error" error={valueError} />
        {propose && (
          <NoteField id="add-secret-note" value={note} error={fieldText(detailsAt('note'))} onInput={setNote} />
        )}
        <ErrorMessage id="add-secret-error" error={taken ? undefined : formError} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {propose ? PROPOSE : 'Save'}
          </button>
          <button type="button" class="secondary" onClick={cancel}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};

/**
 * Writes a new value for a secret, in a dialog, only over the version the list showed
 * (`expectedVersion`); in a protected environment (`propose`), proposes it over that version, with an
 * optional note. If it changed since, the API's 409 is said beside the field, nothing is written or
 * proposed, and the form says which version is current now and offers to write over that one. The
 * field starts empty, and says why: editing never reads the value.
 */
export const EditSecretForm = ({
  api,
  projectId,
  environment,
  name,
  version,
  propose,
  onSaved,
  onConflict,
  onClose,
}: {
  api: Api;
  projectId: string;
  environment: string;
  name: string;
  /** The version the list shows: the only one this write may replace, until a conflict says another. */
  version: number;
  /** Proposes the value rather than writing it: the environment is protected. */
  propose?: ((proposal: Proposal) => Promise<void>) | undefined;
  onSaved: (secret: WrittenSecret) => void;
  /** The secret changed elsewhere: the list should show its current version. */
  onConflict: () => void;
  onClose: () => void;
}) => {
  const [value, setValue] = useState('');
  const [expected, setExpected] = useState(version);
  // The version current when the last write was refused, to offer writing over it.
  const [current, setCurrent] = useState<SecretVersion>();
  const [note, setNote] = useState('');
  const { busy, error, detailsAt, run } = useAction(['note']);
  const field = useRef<HTMLTextAreaElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const write = async (over: number) => {
    const written = await run(async () => {
      try {
        if (propose) {
          await propose({ set: { [name]: value }, expectedVersions: { [name]: over }, ...noteOf(note) });
          return;
        }
        const saved = await api.set(projectId, environment, name, value, { expectedVersion: over });
        onSaved(saved.secret);
      } catch (failure) {
        if (failure instanceof ApiError && failure.message === ErrorText.secretConflict) {
          onConflict();
          const [newest] = await api.history(projectId, environment, name);
          setCurrent(newest);
        }
        throw failure;
      }
    });
    // The Save button was disabled under way: the field, which the error describes, takes the focus.
    if (!written) field.current?.focus();
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void write(expected);
  };
  const overwrite = () => {
    if (!current) return;
    setExpected(current.version);
    setCurrent(undefined);
    void write(current.version);
  };
  return (
    <Modal labelledBy="edit-secret-title" wide onClose={onClose} dialogRef={dialog}>
      <form id="edit-secret-form" onSubmit={submit} aria-labelledby="edit-secret-title">
        <h2 id="edit-secret-title">
          {propose ? `${PROPOSE}: edit` : 'Edit'} “{name}”
        </h2>
        <p id="edit-secret-hint" class="hint">
          The current value is not shown here (editing never reads it): type the new value. It replaces version{' '}
          {expected}
          {propose ? ' once the change is approved' : ` as version ${expected + 1}`}; if the secret changed since,
          nothing is {propose ? 'proposed' : 'written'}.
        </p>
        <label for="edit-secret-value">Value</label>
        <textarea
          id="edit-secret-value"
          ref={field}
          rows={3}
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={value}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy('edit-secret-hint', error !== undefined && 'edit-secret-error')}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <ErrorMessage id="edit-secret-error" error={error} />
        {propose && (
          <NoteField id="edit-secret-note" value={note} error={fieldText(detailsAt('note'))} onInput={setNote} />
        )}
        {current && !current.deleted && (
          <p class="hint">
            Version {current.version} is current now, written by {current.updatedBy.email ?? current.updatedBy.userId}{' '}
            <When at={current.updatedAt} otherwise="" />. Reveal it to compare, or write yours over it.
          </p>
        )}
        {current?.deleted && <p class="hint">It was deleted meanwhile: its History brings it back.</p>}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {propose ? PROPOSE : 'Save'}
          </button>
          {current && !current.deleted && (
            <button type="button" class="secondary" disabled={busy} onClick={overwrite}>
              {propose ? 'Propose' : 'Save'} over version {current.version}
            </button>
          )}
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};
