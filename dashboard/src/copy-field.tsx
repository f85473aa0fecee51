import { useCopy } from './use-copy';

/**
 * Text shown once, to copy: its label, a read-only field that selects its text when focused, a Copy
 * button and the status of the copy (`useCopy`).
 */
export const CopyField = ({ id, label, text, what }: { id: string; label: string; text: string; what: string }) => {
  const { copy, status } = useCopy(id, text, what);
  return (
    <>
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={text} spellcheck={false} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="status" role="status">
        {status}
      </p>
    </>
  );
};
