import { useRef, useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { type CreatedShareEntry, CreateShareForm } from './create-share-form';
import { CreatedShare } from './created-share';
import { List } from './list';
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
      <List
        id="shares"
        title="Your live shares"
        headingRef={listHeading}
        rows={shares.data}
        error={shares.error}
        empty="No live shares."
        rowKey={(share) => share.id}
        columns={[
          { label: 'Share', cell: (share) => <code>{share.id}</code> },
          { label: 'Created', cell: (share) => <When at={share.createdAt} otherwise="" /> },
          { label: 'Expires', cell: (share) => <When at={share.expiresAt} otherwise="" /> },
          { label: 'Views left', cell: (share) => `${share.viewsLeft} of ${share.maxViews}` },
          {
            label: 'Recipients',
            className: 'addresses',
            cell: (share) => (share.recipients === null ? 'Anyone who signs in' : share.recipients.join(', ')),
          },
        ]}
        actions={(share) => (
          <button type="button" class="danger" disabled={withdrawal.busy} onClick={() => void withdraw(share.id)}>
            Withdraw
          </button>
        )}
      >
        <ErrorMessage id="withdraw-error" error={withdrawal.error} />
        <p class="status" role="status">
          {withdrawn}
        </p>
      </List>
    </>
  );
};
