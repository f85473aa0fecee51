import { useEffect, useRef } from 'preact/hooks';
import { CopyField } from './copy-field';
import { isPast, type Shown } from './token-types';
import { When } from './ui';

/**
 * The raw token, once: a read-only field, a copy button and the warning that it will not come back;
 * for a rotation's, which token it replaces and when that one stops. It takes the focus, since the
 * control that led here (the form's button, a row's Rotate) is gone.
 */
export const CreatedToken = ({ token, replaced, onDone }: Shown & { onDone: () => void }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
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
      <CopyField id="new-token" label="New token" text={token.rawToken} what="token" />
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
};
