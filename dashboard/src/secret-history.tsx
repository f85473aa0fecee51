import type { SecretVersion } from '@client/index';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import type { WrittenSecret } from './secret-forms';
import { ErrorMessage, errorText, useAction, When } from './ui';

type Version = SecretVersion;

/**
 * A secret's versions, newest first, with who wrote each and when; a delete is marked. Restore writes
 * an earlier version's value again as the newest version (a deleted secret comes back with it). The
 * heading takes the focus as the panel opens: the control that opened it is elsewhere on the page.
 */
export const SecretHistory = ({
  api,
  projectId,
  environment,
  name,
  revision,
  onRestored,
  onClose,
}: {
  api: Api;
  projectId: string;
  environment: string;
  name: string;
  /** Changes each time the secret may have changed on this page: the versions are read again. */
  revision: number;
  onRestored: (restored: WrittenSecret, from: number) => void;
  onClose: () => void;
}) => {
  const [versions, setVersions] = useState<{ list?: readonly Version[]; error?: string }>({});
  const heading = useRef<HTMLHeadingElement>(null);
  const { busy, error, run } = useAction();
  useEffect(() => heading.current?.focus(), []);
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
  // Restore is not disabled while one is under way (a disabled button drops the focus): a second waits.
  const restore = (version: number) =>
    !busy &&
    void run(async () => {
      onRestored(await api.restore(projectId, environment, name, version), version);
    });
  const list = versions.list;
  return (
    <section id="secret-history" class="panel" aria-labelledby="history-title">
      <h2 id="history-title" ref={heading} tabIndex={-1}>
        History of “{name}”
      </h2>
      <p class="hint">Newest first. Restore writes that version’s value again, as the newest version.</p>
      <ErrorMessage id="history-load-error" error={versions.error} />
      {list === undefined ? (
        !versions.error && <p>Loading…</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Changed by</th>
              <th scope="col">Changed</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((entry, index) => (
              <tr key={entry.version} class={entry.deleted ? 'expired' : undefined}>
                <th scope="row" data-label="Version">
                  {entry.version}
                </th>
                <td data-label="Changed by" class="who-changed">
                  {entry.updatedBy.email ?? entry.updatedBy.userId}
                </td>
                <td data-label="Changed">
                  <When at={entry.updatedAt} otherwise="" />
                </td>
                <td data-label={entry.deleted || index === 0 ? 'State' : undefined}>
                  {entry.deleted ? 'Deleted' : index === 0 ? 'Current' : ''}
                </td>
                <td class="row-actions">
                  {!entry.deleted && (
                    <button type="button" class="secondary" onClick={() => restore(entry.version)}>
                      Restore
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorMessage id="history-error" error={error} />
      <button type="button" class="secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
};
