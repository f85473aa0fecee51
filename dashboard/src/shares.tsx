import { useRef, useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { type CreatedShareEntry, CreateShareForm } from './create-share-form';
import { CreatedShare } from './created-share';
import { ErrorMessage, useAction, useLoad, When } from './ui';

/**
 * Share: seal a secret into a link for one person (or a few views), read the link once, and list the
 * caller's live shares, each with Withdraw. The list never has a link: the keys stay in the links.
 */
export const SharesScreen = ({ api }: { api: Api }) => {
  const shares = useLoad(() => dataOf(api.api.GET('/api/v1/shares')));
  const [created, setCreated] = useState<CreatedShareEntry>();
  const withdrawal = useAction();
  const [withdrawn, setWithdrawn] = useState('');
  const listHeading = useRef<HTMLHeadingElement>(null);
  const withdraw = async (id: string) => {
    setWithdrawn('');
    const done = await withdrawal.run(async () => {
      await api.api.DELETE('/api/v1/shares/{id}', { params: { path: { id } } });
    });
    if (done) setWithdrawn(`Withdrawn ${id}: its link reveals nothing any more.`);
    shares.reload();
    // The row's button is gone with the row (or refused): the list takes the focus.
    listHeading.current?.focus();
  };
  const list = shares.data;
  return (
    <>
      <h1>Share a secret</h1>
      <p class="lead">
        A link that reveals a secret a set number of times, to the people you name. It is encrypted in this browser; the
        key travels only in the link.
      </p>
      {created ? (
        <CreatedShare key={created.share.id} {...created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateShareForm
          api={api}
          onCreated={(entry) => {
            setCreated(entry);
            setWithdrawn('');
            shares.reload();
          }}
        />
      )}
      <section aria-labelledby="shares-title">
        <h2 id="shares-title" ref={listHeading} tabIndex={-1}>
          Your live shares
        </h2>
        <ErrorMessage id="shares-error" error={shares.error} />
        <ErrorMessage id="withdraw-error" error={withdrawal.error} />
        <p class="status" role="status">
          {withdrawn}
        </p>
        {list === undefined ? (
          !shares.error && <p>Loading…</p>
        ) : list.length === 0 ? (
          <p>No live shares.</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Share</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Views left</th>
                <th scope="col">Recipients</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((share) => (
                <tr key={share.id}>
                  <th scope="row" data-label="Share">
                    <code>{share.id}</code>
                  </th>
                  <td data-label="Created">
                    <When at={share.createdAt} otherwise="" />
                  </td>
                  <td data-label="Expires">
                    <When at={share.expiresAt} otherwise="" />
                  </td>
                  <td data-label="Views left">
                    {share.viewsLeft} of {share.maxViews}
                  </td>
                  <td data-label="Recipients" class="addresses">
                    {share.recipients === null ? 'Anyone who signs in' : share.recipients.join(', ')}
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="danger"
                      disabled={withdrawal.busy}
                      onClick={() => void withdraw(share.id)}
                    >
                      Withdraw
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
};
