import { useCopy } from './use-copy';
import { valueParts } from './value-text';

/**
 * A revealed value: monospace, its line breaks kept, broken inside a word only where the word is wider
 * than the cell, and scrolled within its box when long; its direction taken from its own text, isolated
 * from the table's, and its invisible format and control characters shown by their code points (a
 * U+202E cannot show it reversed). Copy copies the value itself.
 */
export const RevealedValue = ({ id, value }: { id: string; value: string }) => {
  const { copy, status } = useCopy(id, value, 'value');
  return (
    <div class="revealed">
      <code
        id={id}
        class="secret-value"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls, and a keyboard scrolls only what has the focus
        tabIndex={0}
        onFocus={(event) => getSelection()?.selectAllChildren(event.currentTarget)}
      >
        {valueParts(value).map((part, index) =>
          'text' in part ? (
            part.text
          ) : (
            <span key={index} class="control-character">
              {part.control}
            </span>
          ),
        )}
      </code>
      <button type="button" class="secondary" onClick={copy}>
        Copy
      </button>
      <span class="status" role="status">
        {status}
      </span>
    </div>
  );
};
