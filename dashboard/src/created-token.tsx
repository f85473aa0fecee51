import { useEffect, useRef, useState } from 'preact/hooks';
import { isPast, type Shown } from './token-types';
import { When } from './ui';

/**
 * The raw token, once: a read-only field, a copy button and the warning that it will not come back;
 * for a rotation's, which token it replaces and when that one stops. It takes the focus, since the
 * control that led here (the form's button, a row's Rotate) is gone.
 */
export const CreatedToken = ({ token, replaced, onDone }: Shown & { onDone: () => void }) => {
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.rawToken);
      setStatus('Copied to the clipboard.');
    } catch {
      // Some browsers refuse the clipboard to a page; the selected text is one keystroke away.
      document.getElementById('new-token')?.focus();
      setStatus('The browser did not allow copying: the token is selected, press Ctrl+C or ⌘C.');
    }
  };
  return (
    <section class="panel created" aria-labelledby="created-title">
      <h2 id="created-title" ref={heading} tabIndex={-1}>
        Token “{token.name}” {'replaces' in token ? 'rotated' : 'created'}
      </h2>
      {'replaces' in token && (
        <p>
          It replaces {replaced ? <code>{replaced.displayPrefix}…</code> : 'the old token'}, which{' '}
          {isPast(token.replaces.stopsAt) ? (
            'has stopped working.'
          ) : (
            <>
              keeps working until <When at={token.replaces.stopsAt} otherwise="" />.
            </>
          )}
        </p>
      )}
      <p class="warning">Copy it now. It will not be shown again.</p>
      <label for="new-token">New token</label>
      <div class="copy-row">
        <input
          id="new-token"
          readOnly
          value={token.rawToken}
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="status" role="status">
        {status}
      </p>
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
};
