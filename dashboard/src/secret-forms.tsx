import type { SecretInfo } from '@client/index';
import { ErrorText, type ValidationDetail } from '@contract/errors';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, ApiError } from './api';
import { ErrorMessage, useAction, useDraft } from './ui';

/** A secret as a write answers it: its new version, never its value. */
export type WrittenSecret = SecretInfo;

/** The API's words about one field, one detail after another. */
const fieldText = (details: readonly ValidationDetail[]): string | undefined =>
  details.length > 0 ? details.map((detail) => detail.message).join(' ') : undefined;

/** `aria-describedby` of a field: its hint, and its error while there is one. */
const describedBy = (...ids: (string | false | undefined)[]): string | undefined =>
  ids.filter((id): id is string => typeof id === 'string').join(' ') || undefined;

/**
 * Adds a secret: a PUT that may only create (`expectedVersion: 0`), so that a name already in use is
 * refused rather than overwritten. The name is kept as a draft across a forced sign-in; the value is
 * not: values stay out of the tab's storage.
 */
export const AddSecretForm = ({
  api,
  projectId,
  environment,
  draftKey,
  onSaved,
}: {
  api: Api;
  projectId: string;
  environment: string;
  draftKey: string;
  onSaved: (secret: WrittenSecret) => void;
}) => {
  const [name, setName, clearName] = useDraft(draftKey, '');
  const [value, setValue] = useState('');
  const { busy, error, failure, detailsAt, run } = useAction(['name', 'value']);
  const nameInput = useRef<HTMLInputElement>(null);
  // A taken name is the name's problem: it is said beside the name, not under the form.
  const taken = failure?.status === 409 && failure.error === ErrorText.secretConflict;
  const nameError = taken ? failure.error : fieldText(detailsAt('name'));
  const valueError = fieldText(detailsAt('value'));
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const saved = await api.set(projectId, environment, name, value, { expectedVersion: 0 });
      clearName();
      setValue('');
      nameInput.current?.focus();
      onSaved(saved.secret);
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="add-secret-title">
      <h2 id="add-secret-title">Add secret</h2>
      <label for="secret-name">Name</label>
      <p id="secret-name-hint" class="hint">
        As an environment variable’s: letters, digits and _, such as DATABASE_URL.
      </p>
      <input
        id="secret-name"
        ref={nameInput}
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
      <textarea
        id="secret-value"
        rows={2}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        value={value}
        aria-invalid={valueError !== undefined}
        aria-describedby={describedBy(valueError !== undefined && 'secret-value-error')}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <ErrorMessage id="secret-value-error" error={valueError} />
      <ErrorMessage id="add-secret-error" error={taken ? undefined : error} />
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
};

/**
 * Writes a new value for a secret, only over the version the list showed (`expectedVersion`): if it
 * changed since, the API's 409 is said beside the field and nothing is written. The field starts
 * empty: editing never reads the value.
 */
export const EditSecretForm = ({
  api,
  projectId,
  environment,
  name,
  version,
  onSaved,
  onConflict,
  onCancel,
}: {
  api: Api;
  projectId: string;
  environment: string;
  name: string;
  /** The version the list shows: the only one this write may replace. */
  version: number;
  onSaved: (secret: WrittenSecret) => void;
  /** The secret changed elsewhere: the list should show its current version. */
  onConflict: () => void;
  onCancel: () => void;
}) => {
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const written = await run(async () => {
      try {
        const saved = await api.set(projectId, environment, name, value, { expectedVersion: version });
        onSaved(saved.secret);
      } catch (failure) {
        if (failure instanceof ApiError && failure.message === ErrorText.secretConflict) onConflict();
        throw failure;
      }
    });
    // The Save button was disabled under way: the field, which the error describes, takes the focus.
    if (!written) field.current?.focus();
  };
  return (
    <form id="edit-secret-form" class="panel" onSubmit={submit} aria-labelledby="edit-secret-title">
      <h2 id="edit-secret-title">Edit “{name}”</h2>
      <p id="edit-secret-hint" class="hint">
        The new value replaces version {version} as version {version + 1}. If the secret changed since it was listed,
        nothing is written.
      </p>
      <label for="edit-secret-value">Value</label>
      <textarea
        id="edit-secret-value"
        ref={field}
        rows={2}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        value={value}
        aria-invalid={error !== undefined}
        aria-describedby={describedBy('edit-secret-hint', error !== undefined && 'edit-secret-error')}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <ErrorMessage id="edit-secret-error" error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
};
