import type { Environment, operations } from '@client/index';
import { MAX_NOTE_LENGTH } from '@contract/limits';
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import type { ChangeRequest } from './change-words';
import { fieldText } from './field-error';
import { ErrorMessage, Modal, useAction } from './ui';

/** What a change request proposes: what a PATCH of secrets carries, restores, and a note. */
export type Proposal = operations['createChangeRequest']['requestBody']['content']['application/json'];

/**
 * How the person changes an environment's secrets: at once, by proposing a change (the environment is
 * protected), or not at all (they may only read there).
 */
export type WriteMode = 'write' | 'propose' | 'read';

/** How the person changes `environment`'s secrets, by their access there and its protection. */
export const writeModeOf = (environment: Environment): WriteMode =>
  environment.access !== 'write' ? 'read' : environment.protected ? 'propose' : 'write';

/** The words a write in a protected environment starts with: its dialog's heading and its button. */
export const PROPOSE = 'Propose change';

/** Proposes a change of a protected environment: a change request, which waits for approval. */
export const proposeChange = (
  api: Api,
  projectId: string,
  environment: string,
  proposal: Proposal,
): Promise<ChangeRequest> =>
  dataOf(
    api.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests', {
      params: { path: { projectId, environment } },
      body: proposal,
    }),
  );

/** A typed note as a proposal carries it: none when blank (the API refuses an empty note). */
export const noteOf = (text: string): Pick<Proposal, 'note'> => (text.trim() === '' ? {} : { note: text });

/** A proposal's optional note, for whoever approves it; the API's words about it beside it. */
export const NoteField = ({
  id,
  value,
  error,
  onInput,
}: {
  id: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) => (
  <>
    <label for={id}>Note (optional)</label>
    <textarea
      id={id}
      class="note-field"
      rows={2}
      maxLength={MAX_NOTE_LENGTH}
      value={value}
      aria-invalid={error !== undefined}
      aria-describedby={error === undefined ? undefined : `${id}-error`}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
    <ErrorMessage id={`${id}-error`} error={error} />
  </>
);

/**
 * Proposes one change that needs no value (a delete, a restore) in a dialog: what it does, an optional
 * note, and Propose change; the API's words when it refuses.
 */
export const ProposeDialog = ({
  title,
  children,
  onPropose,
  onClose,
}: {
  /** What the change does, after "Propose change: ". */
  title: string;
  children: ComponentChildren;
  onPropose: (note: Pick<Proposal, 'note'>) => Promise<void>;
  onClose: () => void;
}) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState('');
  const { busy, formError, detailsAt, run } = useAction(['note']);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(() => onPropose(noteOf(note)));
  };
  return (
    <Modal labelledBy="propose-title" onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="propose-title">
        <h2 id="propose-title">
          {PROPOSE}: {title}
        </h2>
        {children}
        <NoteField id="propose-note" value={note} error={fieldText(detailsAt('note'))} onInput={setNote} />
        <ErrorMessage id="propose-error" error={formError} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {PROPOSE}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};

/** What a proposal says once it is made: it waits for approval, and where to follow it. */
export const ProposedStatus = ({ changesHref }: { changesHref: string }) => (
  <>
    Proposed: waiting for approval. <a href={changesHref}>See it in Changes</a>
  </>
);
