import type { SecretVersion } from '@client/index';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { List } from './list';
import type { WriteMode } from './proposals';
import type { WrittenSecret } from './secret-forms';
import { ErrorMessage, errorText, Modal, useAction, When } from './ui';

type Version = SecretVersion;

/**
 * A secret's versions in a dialog, newest first, with who wrote each and when; a delete is marked.
 * Restore writes an earlier version's value again as the newest version (a deleted secret comes back
 * with it); the current version has none, since it would write the same value again. In a protected
 * environment Restore proposes it instead (`onPropose`), and for whoever only reads there it is not offered.
 */
export const SecretHistory = ({
  api,
  projectId,
  environment,
  name,
  revision,
  mode,
  onRestored,
  onPropose,
  onClose,
}: {
  api: Api;
  projectId: string;
  environment: string;
  name: string;
  /** Changes each time the secret may have changed on this page: the versions are read again. */
  revision: number;
  mode: WriteMode;
  onRestored: (restored: WrittenSecret, from: number) => void;
  /** Restore of a version in a protected environment: to be proposed. */
  onPropose: (version: number) => void;
  onClose: () => void;
}) => {
  const [versions, setVersions] = useState<{ list?: readonly Version[]; error?: string }>({});
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    let current = true;
    api.history(projectId, environment, name).then(
      (list) => current && setVersions({ list }),
      (failure) => current && setVersions((previous) => ({ ...previous, error: errorText(failure) })),
    );
    return () => {
      current = false;
    };
  }, [revision]);
  const restore = (version: number) => {
    if (mode === 'propose') onPropose(version);
    // Not disabled while one is under way (a disabled button drops the focus): a second waits.
    else if (!busy) void run(async () => onRestored(await api.restore(projectId, environment, name, version), version));
  };
  const newest = versions.list?.[0];
  const isCurrent = (entry: Version) => entry === newest && !entry.deleted;
  return (
    <Modal labelledBy="history-title" wide onClose={onClose} dialogRef={dialog}>
      <List
        id="history"
        title={`History of “${name}”`}
        rows={versions.list}
        error={versions.error}
        rowKey={(entry) => String(entry.version)}
        rowClass={(entry) => (entry.deleted ? 'expired' : undefined)}
        columns={[
          { label: 'Version', cell: (entry) => entry.version },
          {
            label: 'Changed by',
            className: 'who-changed',
            cell: (entry) => entry.updatedBy.email ?? entry.updatedBy.userId,
          },
          { label: 'Changed', cell: (entry) => <When at={entry.updatedAt} otherwise="" /> },
          { label: 'State', cell: (entry) => (entry.deleted ? 'Deleted' : isCurrent(entry) ? 'Current' : '') },
        ]}
        actions={(entry) =>
          mode !== 'read' &&
          !entry.deleted &&
          !isCurrent(entry) && (
            <button type="button" class="secondary" onClick={() => restore(entry.version)}>
              Restore
            </button>
          )
        }
      >
        <p class="hint">
          Newest first.
          {mode === 'write' && ' Restore writes that version’s value again, as the newest version.'}
          {mode === 'propose' && ' Restore proposes writing that version’s value again, once the change is approved.'}
        </p>
      </List>
      <ErrorMessage id="history-error" error={error} />
      <div class="actions">
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </Modal>
  );
};
