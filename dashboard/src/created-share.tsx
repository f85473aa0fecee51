import { useEffect, useRef } from 'preact/hooks';
import { CopyField } from './copy-field';
import type { CreatedShareEntry } from './create-share-form';
import { When } from './ui';

/**
 * A new share's link, once: a read-only field, a copy button, its limits and the warning that the
 * link (whose fragment is the only copy of the key) will not come back. It takes the focus, since the
 * form's button that led here is gone. Neither it nor the form is named with "link": the field is the
 * one thing labelled Link on the screen.
 */
export const CreatedShare = ({ share, link, onDone }: CreatedShareEntry & { onDone: () => void }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel created" aria-labelledby="created-share-title">
      <h2 id="created-share-title" ref={heading} tabIndex={-1}>
        Share created
      </h2>
      <p>
        It reveals the secret {share.maxViews === 1 ? 'once' : `${share.maxViews} times`}, to{' '}
        {share.recipients === null ? 'anyone who signs in' : share.recipients.join(', ')}, until{' '}
        <When at={share.expiresAt} otherwise="" />.
      </p>
      <p class="warning">Copy it now. The key is only in this link: it will not be shown again.</p>
      <CopyField id="share-link" label="Link" text={link} what="link" />
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
};
