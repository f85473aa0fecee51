import { ErrorText } from '@contract/errors';
import { MAX_PATCH_CHANGES } from '@contract/limits';
import { useRef, useState } from 'preact/hooks';
import { type Api, ApiError } from './api';
import { type DotenvEntry, type DotenvProblem, parseDotenv } from './dotenv';
import { fieldText } from './field-error';
import { NoteField, noteOf, PROPOSE, type Proposal } from './proposals';
import { ErrorMessage, Modal, useAction } from './ui';

/** One line's problem as the list shows it: its number, the name it sets, what is wrong. */
const ProblemLine = ({ problem }: { problem: DotenvProblem }) => (
  <li>
    Line {problem.line}
    {problem.name !== undefined && (
      <>
        , <code>{problem.name}</code>
      </>
    )}
    : {problem.message}
  </li>
);

/** What an import would do to the secrets listed: the names it would overwrite, at their versions, and add. */
const OverwritePreview = ({
  entries,
  live,
}: {
  entries: readonly DotenvEntry[];
  live: ReadonlyMap<string, number>;
}) => {
  const names = [...new Set(entries.map((entry) => entry.name))];
  const overwritten = names.filter((name) => live.has(name));
  const added = names.length - overwritten.length;
  if (names.length === 0) return null;
  return (
    <div id="import-preview" class="preview">
      {overwritten.length > 0 && (
        <p class="warning">
          Overwrites {overwritten.length === 1 ? '1 secret' : `${overwritten.length} secrets`}:{' '}
          {overwritten.map((name, index) => (
            <span key={name}>
              {index > 0 && ', '}
              <code>{name}</code> (version {live.get(name)})
            </span>
          ))}
          .
        </p>
      )}
      <p class="hint">{added === 0 ? 'Adds none.' : `Adds ${added === 1 ? '1 secret' : `${added} secrets`}.`}</p>
    </div>
  );
};

/**
 * Sets the secrets of a pasted .env in one PATCH, all or none, in a dialog. Each line is checked here
 * first and a wrong one is named by its number; while one is wrong, or there are more than the API
 * takes at once, nothing is sent. Before it is sent, the form names the secrets it would overwrite,
 * and it writes over the versions it named only (`expectedVersions`, 0 for a new name): a secret
 * changed or added meanwhile is a conflict, and nothing is written. What the API refuses of a value
 * is named by its line too. In a protected environment (`propose`) the same change is proposed, with
 * an optional note. The text is never kept in the tab's storage: it is values.
 */
export const ImportSecretsForm = ({
  api,
  projectId,
  environment,
  live,
  propose,
  onImported,
  onConflict,
  onClose,
}: {
  api: Api;
  projectId: string;
  environment: string;
  /** The secrets listed, by name, at the version the list shows. */
  live: ReadonlyMap<string, number>;
  /** Proposes the secrets rather than writing them: the environment is protected. */
  propose?: ((proposal: Proposal) => Promise<void>) | undefined;
  onImported: (count: number) => void;
  /** A secret changed since the list was read: the list is to be read again. */
  onConflict: () => void;
  onClose: () => void;
}) => {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const [problems, setProblems] = useState<readonly DotenvProblem[]>([]);
  // The entries as last sent, so that an error about `set.<NAME>` can name its line.
  const [sent, setSent] = useState<readonly DotenvEntry[]>([]);
  const [note, setNote] = useState('');
  const { busy, error, detailsAt, run } = useAction(['set', 'note']);
  const apiProblems: DotenvProblem[] = detailsAt('set').map((detail) => {
    const name = detail.path.slice('set.'.length);
    const entry = sent.find((candidate) => candidate.name === name);
    return entry ? { line: entry.line, name, message: detail.message } : { line: 0, message: detail.message };
  });
  const shown = [...problems, ...apiProblems];
  const submit = async (event: Event) => {
    event.preventDefault();
    // What is refused here fails like a refusal of the API: said under the field, nothing sent.
    await run(async () => {
      const { entries, problems: found } = parseDotenv(text);
      setProblems(found);
      setSent([]);
      if (found.length > 0) {
        throw new Error(`Nothing was sent: ${found.length === 1 ? 'a line' : `${found.length} lines`} to correct.`);
      }
      if (entries.length === 0) throw new Error('No NAME=value line to import.');
      if (entries.length > MAX_PATCH_CHANGES) {
        throw new Error(
          `${entries.length} secrets: one import sets at most ${MAX_PATCH_CHANGES}, all or none. Nothing was sent.`,
        );
      }
      setSent(entries);
      const changes = {
        set: Object.fromEntries(entries.map((entry) => [entry.name, entry.value])),
        expectedVersions: Object.fromEntries(entries.map((entry) => [entry.name, live.get(entry.name) ?? 0])),
      };
      try {
        if (propose) await propose({ ...changes, ...noteOf(note) });
        else await api.change(projectId, environment, changes);
      } catch (failure) {
        if (failure instanceof ApiError && failure.message === ErrorText.secretConflict) {
          onConflict();
          throw new Error(
            `${failure.message}: a secret changed or was added since the list was read. Nothing was ${propose ? 'proposed' : 'imported'}; check what it overwrites now and ${propose ? 'propose it' : 'import'} again.`,
          );
        }
        throw failure;
      }
      setText('');
      if (!propose) onImported(entries.length);
    });
    // The Import button was disabled under way: the field takes the focus back, for a correction or the next paste.
    field.current?.focus();
  };
  const invalid = error !== undefined;
  const preview = parseDotenv(text).entries;
  return (
    <Modal labelledBy="import-title" wide onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="import-title">
        <h2 id="import-title">{propose ? `${PROPOSE}: import a .env file` : 'Import a .env file'}</h2>
        <label for="import-text">Paste .env</label>
        <p id="import-hint" class="hint">
          One NAME=value per line (export, quotes and # comments are fine), up to {MAX_PATCH_CHANGES} at once: all of
          them are set in {environment}
          {propose ? ' once the change is approved' : ''}, or none.
        </p>
        <textarea
          id="import-text"
          ref={field}
          rows={6}
          required
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          placeholder={'NAME=value\nexport OTHER_NAME="a quoted value"'}
          value={text}
          aria-invalid={invalid}
          aria-describedby={`import-hint${preview.length > 0 ? ' import-preview' : ''}${shown.length > 0 ? ' import-lines-error' : ''}${invalid ? ' import-error' : ''}`}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <OverwritePreview entries={preview} live={live} />
        {shown.length > 0 && (
          <div id="import-lines-error" class="error" role="alert">
            <ul>
              {shown.map((problem) => (
                <ProblemLine key={`${problem.line}:${problem.message}`} problem={problem} />
              ))}
            </ul>
          </div>
        )}
        {propose && <NoteField id="import-note" value={note} error={fieldText(detailsAt('note'))} onInput={setNote} />}
        <ErrorMessage id="import-error" error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {propose ? PROPOSE : 'Import'}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};
