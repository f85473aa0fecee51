import { MAX_PATCH_CHANGES } from '@contract/limits';
import { useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { type DotenvEntry, type DotenvProblem, parseDotenv } from './dotenv';
import { ErrorMessage, useAction } from './ui';

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

/**
 * Sets the secrets of a pasted .env in one PATCH, all or none. Each line is checked here first and a
 * wrong one is named by its number; while one is wrong, or there are more than the API takes at once,
 * nothing is sent. What the API refuses of a value is named by its line too. The text is never kept
 * in the tab's storage: it is values.
 */
export const ImportSecretsForm = ({
  api,
  projectId,
  environment,
  onImported,
}: {
  api: Api;
  projectId: string;
  environment: string;
  onImported: (count: number) => void;
}) => {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const [problems, setProblems] = useState<readonly DotenvProblem[]>([]);
  // The entries as last sent, so that an error about `set.<NAME>` can name its line.
  const [sent, setSent] = useState<readonly DotenvEntry[]>([]);
  const { busy, error, detailsAt, run } = useAction(['set']);
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
      await api.change(projectId, environment, {
        set: Object.fromEntries(entries.map((entry) => [entry.name, entry.value])),
      });
      setText('');
      onImported(entries.length);
    });
    // The Import button was disabled under way: the field takes the focus back, for a correction or the next paste.
    field.current?.focus();
  };
  const invalid = error !== undefined;
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="import-title">
      <h2 id="import-title">Import a .env file</h2>
      <label for="import-text">Paste .env</label>
      <p id="import-hint" class="hint">
        One NAME=value per line (export, quotes and # comments are fine), up to {MAX_PATCH_CHANGES} at once: all of them
        are set in {environment}, or none.
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
        aria-describedby={`import-hint${shown.length > 0 ? ' import-lines-error' : ''}${invalid ? ' import-error' : ''}`}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      {shown.length > 0 && (
        <div id="import-lines-error" class="error" role="alert">
          <ul>
            {shown.map((problem) => (
              <ProblemLine key={`${problem.line}:${problem.message}`} problem={problem} />
            ))}
          </ul>
        </div>
      )}
      <ErrorMessage id="import-error" error={error} />
      <button type="submit" disabled={busy}>
        Import
      </button>
    </form>
  );
};
