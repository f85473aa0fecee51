import { openShare } from '@client/index';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, ApiError, dataOf } from './api';
import { keyProblem, SHARE_GONE, viewsLeftAfterReveal, viewsLeftText, withVisibleControls } from './share-text';
import { ErrorMessage, errorText, useAction, When } from './ui';
import { useCopy } from './use-copy';

/** What looking at a share tells before it is revealed. */
interface Look {
  readonly viewsLeft: number;
  readonly expiresAt: string;
  readonly email: string | null;
}

/** The look at a share: under way, what it says, gone (the API's one 404 for every refusal), or failed. */
type LookState =
  | { readonly at: 'loading' }
  | { readonly at: 'found'; readonly look: Look }
  | { readonly at: 'gone' }
  | { readonly at: 'failed'; readonly error: string };

const isGone = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

/** A revealed share: its value (undefined when the key did not open it) and the views left after. */
interface Revealed {
  readonly value: string | undefined;
  readonly viewsLeft: number;
}

/**
 * A share's link page, `/s/<id>#<key>`: who shared it, its views left and expiry (a look that spends
 * nothing), then Reveal, which spends a view and decrypts here with the key from the fragment. The key
 * is read from the address bar only (and leaves it as it is read: `takeLinkKey`), and no request
 * carries it. A link without a whole key is said so before anything is spent. The value shows wrapped
 * at any character, as high as it needs up to a limit, then scrolls; its direction controls are shown
 * written out, never obeyed.
 */
export const ShareLinkPage = ({
  api,
  id,
  linkKey,
}: {
  api: Api;
  id: string | undefined;
  linkKey: string | undefined;
}) => {
  const [state, setState] = useState<LookState>(id === undefined ? { at: 'gone' } : { at: 'loading' });
  const [revealed, setRevealed] = useState<Revealed>();
  const { busy, error, run } = useAction();
  const field = useRef<HTMLTextAreaElement>(null);
  const { copy, status } = useCopy('shared-secret', revealed?.value ?? '', 'secret');
  const missingKey = keyProblem(linkKey);
  const shown = revealed?.value === undefined ? undefined : withVisibleControls(revealed.value);

  useEffect(() => {
    if (id === undefined) return;
    let current = true;
    dataOf(api.api.GET('/api/v1/shares/{id}', { params: { path: { id } } })).then(
      (found) =>
        current &&
        setState({
          at: 'found',
          look: { viewsLeft: found.viewsLeft, expiresAt: found.expiresAt, email: found.createdBy.email },
        }),
      (failure: unknown) =>
        current && setState(isGone(failure) ? { at: 'gone' } : { at: 'failed', error: errorText(failure) }),
    );
    return () => {
      current = false;
    };
  }, [id]);

  useEffect(() => {
    if (revealed?.value !== undefined) field.current?.focus();
  }, [revealed]);

  const reveal = () =>
    run(async () => {
      if (id === undefined || linkKey === undefined) return;
      let answer: { ciphertext: string; viewsLeft: number };
      try {
        answer = await dataOf(api.api.POST('/api/v1/shares/{id}/reveal', { params: { path: { id } } }));
      } catch (failure) {
        if (isGone(failure)) setState({ at: 'gone' });
        throw failure;
      }
      // The view is spent whether or not the key opens it: say what is left either way.
      setRevealed({ value: undefined, viewsLeft: answer.viewsLeft });
      const value = await openShare(answer.ciphertext, linkKey);
      setRevealed({ value, viewsLeft: answer.viewsLeft });
    });

  return (
    <>
      <h1>A shared secret</h1>
      {state.at === 'loading' && <p>Loading…</p>}
      {state.at === 'gone' && (
        <p class="error" role="alert">
          {SHARE_GONE}
        </p>
      )}
      <ErrorMessage id="share-look-error" error={state.at === 'failed' ? state.error : undefined} />
      {state.at === 'found' && (
        <section class="panel" aria-labelledby="share-from">
          <h2 id="share-from">Shared by {state.look.email ?? 'a person with no e-mail address on record'}</h2>
          <p role="status">
            {revealed === undefined ? viewsLeftText(state.look.viewsLeft) : viewsLeftAfterReveal(revealed.viewsLeft)}
            {revealed?.viewsLeft !== 0 && (
              <>
                {' '}
                It expires <When at={state.look.expiresAt} otherwise="" />.
              </>
            )}
          </p>
          {missingKey ? (
            <p class="error" role="alert">
              {missingKey}
            </p>
          ) : (
            revealed === undefined && (
              <>
                <p class="hint">
                  Revealing spends one view. The secret is decrypted in this browser, with the link’s key.
                </p>
                <button type="button" disabled={busy} onClick={() => void reveal()}>
                  Reveal
                </button>
              </>
            )
          )}
          <ErrorMessage id="reveal-error" error={error} />
          {revealed?.value !== undefined && (
            <>
              <label for="shared-secret">Shared secret</label>
              <div class="copy-row">
                <textarea
                  id="shared-secret"
                  class="shared-value"
                  ref={field}
                  readOnly
                  rows={Math.min(8, revealed.value.split('\n').length + 1)}
                  spellcheck={false}
                  value={shown}
                  aria-describedby={
                    shown === revealed.value ? 'shared-secret-hint' : 'shared-secret-controls shared-secret-hint'
                  }
                />
                <button type="button" onClick={copy}>
                  Copy
                </button>
              </div>
              <p class="status" role="status">
                {status}
              </p>
              {shown !== revealed.value && (
                <p id="shared-secret-controls" class="hint">
                  It holds characters that change the direction of text, shown here as ⟨U+…⟩ so that nothing shows
                  reversed; Copy copies them as they are.
                </p>
              )}
              <p id="shared-secret-hint" class="hint">
                Copy it now: it is kept nowhere, and revealing it again spends another view.
              </p>
            </>
          )}
        </section>
      )}
    </>
  );
};
