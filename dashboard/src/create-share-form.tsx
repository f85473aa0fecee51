import { type components, sealShare, shareLink } from '@client/index';
import {
  DEFAULT_SHARE_HOURS,
  DEFAULT_SHARE_VIEWS,
  MAX_SHARE_HOURS,
  MAX_SHARE_RECIPIENTS,
  MAX_SHARE_VIEWS,
  MIN_SHARE_HOURS,
} from '@contract/limits';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { describedBy, fieldText } from './field-error';
import { type RecipientLine, recipientLines, valueProblem } from './share-text';
import { detailText, ErrorMessage, useAction, useDraft } from './ui';

/** A share as creating answers it, with the link made from it (the key is in the link only). */
export interface CreatedShareEntry {
  readonly share: components['schemas']['Share'];
  readonly link: string;
}

/** The form as typed, but the secret: kept across a forced sign-in; values stay out of the tab's storage. */
interface ShareDraft {
  readonly hours: string;
  readonly views: string;
  /** One e-mail address per line. */
  readonly recipients: string;
}

const EMPTY_DRAFT: ShareDraft = {
  hours: String(DEFAULT_SHARE_HOURS),
  views: String(DEFAULT_SHARE_VIEWS),
  recipients: '',
};

/**
 * The form of a new share: the secret, sealed in this browser under a new key (`sealShare`), its
 * lifetime, views and recipients. Only the ciphertext goes to the API; the link, made here, carries
 * the key in its fragment. Each refusal of the API is shown beside its field (a refused recipient by
 * its line).
 */
export const CreateShareForm = ({ api, onCreated }: { api: Api; onCreated: (created: CreatedShareEntry) => void }) => {
  const [draft, setDraft, clearDraft] = useDraft<ShareDraft>('share', EMPTY_DRAFT);
  const [value, setValue] = useState('');
  const [checked, setChecked] = useState<string>();
  const { busy, error, failure, detailsAt, run } = useAction([
    'ciphertext',
    'expiresInHours',
    'maxViews',
    'recipients',
  ]);
  // The recipients as last sent, so that an error about `recipients.<i>` can quote its address and line.
  const [sent, setSent] = useState<readonly RecipientLine[]>([]);
  const valueError = checked ?? fieldText(detailsAt('ciphertext'));
  const hoursError = fieldText(detailsAt('expiresInHours'));
  const viewsError = fieldText(detailsAt('maxViews'));
  const recipientErrors = detailsAt('recipients');
  const submit = (event: Event) => {
    event.preventDefault();
    const problem = valueProblem(value);
    setChecked(problem);
    if (problem) return;
    void run(async () => {
      const listed = recipientLines(draft.recipients);
      setSent(listed);
      const { ciphertext, key } = await sealShare(value);
      const body = {
        ciphertext,
        expiresInHours: Number(draft.hours),
        maxViews: Number(draft.views),
        ...(listed.length > 0 && { recipients: listed.map(({ email }) => email) }),
      };
      const share = await dataOf(api.api.POST('/api/v1/shares', { body }));
      clearDraft();
      setValue('');
      // The dashboard is served at the root of its origin: the link page is `/s/<id>` there.
      onCreated({ share, link: shareLink(location.origin, share.id, key) });
    });
  };

  return (
    // The API's checks, said in its words beside each field, rather than the browser's own bubbles.
    <form
      class="panel"
      noValidate
      onSubmit={submit}
      aria-labelledby="create-share-title"
      aria-describedby="create-share-error"
    >
      <h2 id="create-share-title">New share</h2>
      <label for="share-value">Secret to share</label>
      <p id="share-value-hint" class="hint">
        Encrypted in this browser. The service stores only the encrypted value; the key is in the link alone.
      </p>
      <textarea
        id="share-value"
        rows={3}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        value={value}
        aria-invalid={valueError !== undefined}
        aria-describedby={describedBy('share-value-hint', valueError !== undefined && 'share-value-error')}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <ErrorMessage id="share-value-error" error={valueError} />
      <div class="fields share-limits">
        <div>
          <label for="share-hours">Expires in hours</label>
          <p id="share-hours-hint" class="hint">
            {MIN_SHARE_HOURS} to {MAX_SHARE_HOURS}
          </p>
          <input
            id="share-hours"
            type="number"
            min={MIN_SHARE_HOURS}
            max={MAX_SHARE_HOURS}
            value={draft.hours}
            aria-invalid={hoursError !== undefined}
            aria-describedby={describedBy('share-hours-hint', hoursError !== undefined && 'share-hours-error')}
            onInput={(event) => setDraft({ ...draft, hours: event.currentTarget.value })}
          />
          <ErrorMessage id="share-hours-error" error={hoursError} />
        </div>
        <div>
          <label for="share-views">Views</label>
          <p id="share-views-hint" class="hint">
            1 to {MAX_SHARE_VIEWS}
          </p>
          <input
            id="share-views"
            type="number"
            min={1}
            max={MAX_SHARE_VIEWS}
            value={draft.views}
            aria-invalid={viewsError !== undefined}
            aria-describedby={describedBy('share-views-hint', viewsError !== undefined && 'share-views-error')}
            onInput={(event) => setDraft({ ...draft, views: event.currentTarget.value })}
          />
          <ErrorMessage id="share-views-error" error={viewsError} />
        </div>
      </div>
      <label for="share-recipients">Recipients</label>
      <p id="share-recipients-hint" class="hint">
        Optional: one e-mail address per line, up to {MAX_SHARE_RECIPIENTS}. Only they may reveal it; none: anyone who
        signs in.
      </p>
      <textarea
        id="share-recipients"
        rows={3}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        value={draft.recipients}
        aria-invalid={recipientErrors.length > 0}
        aria-describedby={describedBy('share-recipients-hint', recipientErrors.length > 0 && 'share-recipients-error')}
        onInput={(event) => setDraft({ ...draft, recipients: event.currentTarget.value })}
      />
      {recipientErrors.length > 0 && (
        <div id="share-recipients-error" class="error" role="alert">
          <ul>
            {recipientErrors.map((detail) => {
              const sentLine = sent[Number(detail.path.split('.')[1])];
              return (
                <li key={detail.path}>
                  {detail.path === 'recipients' ? (
                    detail.message
                  ) : sentLine === undefined ? (
                    detailText(detail)
                  ) : (
                    <>
                      Line {sentLine.line}, <code>{sentLine.email}</code>: {detail.message}
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <ErrorMessage
        id="create-share-error"
        error={
          failure?.status === 409 ? `${error}: withdraw one of your shares below, or wait until one expires.` : error
        }
      />
      <button type="submit" disabled={busy}>
        Create link
      </button>
    </form>
  );
};
