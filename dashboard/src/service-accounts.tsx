import type { Environment } from '@client/index';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, bodyOf, dataOf } from './api';
import { List } from './list';
import type { MeState } from './me';
import { projectHref } from './projects';
import { CreateServiceAccountForm, EditServiceAccount } from './service-account-form';
import { ServiceAccountTokens } from './service-account-tokens';
import { accessSummary, type ServiceAccount, serviceAccountLevel } from './service-account-types';
import { TrustRules } from './trust-rules';
import { Confirm, ErrorMessage, useLoad, When } from './ui';

/** The tab's address, and one service account's under it (`#/projects/<id>/service-accounts/<sa id>`). */
export const serviceAccountHref = (projectId: string, serviceAccountId?: string): string =>
  `${projectHref(projectId, 'service-accounts')}${serviceAccountId ? `/${encodeURIComponent(serviceAccountId)}` : ''}`;

/** The question before a delete, which stops every token of the service account at once. */
const DeleteServiceAccount = ({
  api,
  projectId,
  serviceAccount,
  onDeleted,
  onClose,
}: {
  api: Api;
  projectId: string;
  serviceAccount: ServiceAccount;
  onDeleted: () => void;
  onClose: () => void;
}) => (
  <Confirm
    title={`Delete the service account “${serviceAccount.name}”?`}
    action="Delete"
    onClose={onClose}
    onConfirm={async () => {
      await api.api.DELETE('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}', {
        params: { path: { projectId, serviceAccountId: serviceAccount.id } },
      });
      onDeleted();
    }}
  >
    <p>Every token of it stops working at once. This cannot be undone.</p>
  </Confirm>
);

/**
 * One service account: its description and access, Edit and Delete, and its tokens and trust rules for
 * owners and admins (`manages`); the others read what it is and may do.
 */
const ServiceAccountDetail = ({
  api,
  projectId,
  serviceAccountId,
  environments,
  manages,
  me,
}: {
  api: Api;
  projectId: string;
  serviceAccountId: string;
  environments: readonly Environment[] | undefined;
  manages: boolean;
  me: MeState;
}) => {
  const loaded = useLoad(() =>
    dataOf(
      api.api.GET('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}', {
        params: { path: { projectId, serviceAccountId } },
      }),
    ),
  );
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const serviceAccount = loaded.data;
  return (
    <>
      <p>
        <a href={serviceAccountHref(projectId)}>← Service accounts</a>
      </p>
      <ErrorMessage id="service-account-error" error={loaded.error} />
      {serviceAccount === undefined ? (
        !loaded.error && <p>Loading…</p>
      ) : (
        <>
          <section class="panel" aria-labelledby="service-account-title">
            <h2 id="service-account-title" ref={heading} tabIndex={-1}>
              Service account “{serviceAccount.name}”
            </h2>
            <dl class="details">
              <dt>Description</dt>
              <dd>{serviceAccount.description ?? 'none'}</dd>
              <dt>Access</dt>
              <dd>{accessSummary(serviceAccount)}</dd>
              <dt>Created</dt>
              <dd>
                <When at={serviceAccount.createdAt} otherwise="" />
                {serviceAccount.createdBy.email && ` by ${serviceAccount.createdBy.email}`}
              </dd>
            </dl>
            <p class="status" role="status">
              {status}
            </p>
            {manages && (
              <div class="row-buttons">
                <button type="button" class="secondary" onClick={() => setEditing(true)}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(true)}>
                  Delete
                </button>
              </div>
            )}
          </section>
          {manages ? (
            <>
              <ServiceAccountTokens api={api} projectId={projectId} serviceAccount={serviceAccount} me={me} />
              <TrustRules api={api} projectId={projectId} serviceAccount={serviceAccount} />
            </>
          ) : (
            <p class="hint">Only the project’s owner and admins see and make its tokens and trust rules.</p>
          )}
          {editing && environments && (
            <EditServiceAccount
              api={api}
              projectId={projectId}
              serviceAccount={serviceAccount}
              environments={environments}
              onClose={() => {
                setEditing(false);
                heading.current?.focus();
              }}
              onSaved={(changed) => {
                setStatus(`Saved “${changed.name}”: ${accessSummary(changed)}.`);
                loaded.reload();
              }}
            />
          )}
          {deleting && (
            <DeleteServiceAccount
              api={api}
              projectId={projectId}
              serviceAccount={serviceAccount}
              onClose={() => setDeleting(false)}
              onDeleted={() => {
                location.hash = serviceAccountHref(projectId);
              }}
            />
          )}
        </>
      )}
    </>
  );
};

/**
 * A project's Service accounts tab: its service accounts with their description and access per
 * environment (a column each), any member may read; owners and admins (`manages`) create, edit and
 * delete them. A service account's name leads to its own page (`serviceAccountId`): its tokens.
 */
export const ServiceAccountsPanel = ({
  api,
  projectId,
  serviceAccountId,
  environments,
  error,
  manages,
  me,
}: {
  api: Api;
  projectId: string;
  /** The service account the address names, whose page is shown instead of the list. */
  serviceAccountId: string | undefined;
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  manages: boolean;
  me: MeState;
}) => {
  const serviceAccounts = useLoad(() =>
    bodyOf(api.api.GET('/api/v1/projects/{projectId}/service-accounts', { params: { path: { projectId } } })),
  );
  const [status, setStatus] = useState('');
  const [editing, setEditing] = useState<ServiceAccount>();
  const [deleting, setDeleting] = useState<ServiceAccount>();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Back from a service account's page, the list is read again: it may have changed or gone there.
  const opened = useRef(serviceAccountId);
  useEffect(() => {
    if (serviceAccountId === undefined && opened.current !== undefined) serviceAccounts.reload();
    opened.current = serviceAccountId;
  }, [serviceAccountId]);
  if (serviceAccountId !== undefined) {
    return (
      <ServiceAccountDetail
        key={serviceAccountId}
        api={api}
        projectId={projectId}
        serviceAccountId={serviceAccountId}
        environments={environments}
        manages={manages}
        me={me}
      />
    );
  }
  return (
    <>
      {manages && (
        <CreateServiceAccountForm
          api={api}
          projectId={projectId}
          environments={environments}
          onCreated={(created) => {
            setStatus(`Created the service account “${created.name}”: ${accessSummary(created)}.`);
            serviceAccounts.reload();
          }}
        />
      )}
      <List
        id="service-accounts"
        title="Service accounts"
        headingRef={headingRef}
        rows={serviceAccounts.data?.data}
        error={serviceAccounts.error ?? error}
        empty="This project has no service account yet."
        rowKey={(serviceAccount) => serviceAccount.id}
        columns={[
          {
            label: 'Name',
            cell: (serviceAccount) => (
              <a href={serviceAccountHref(projectId, serviceAccount.id)}>{serviceAccount.name}</a>
            ),
          },
          { label: 'Description', cell: (serviceAccount) => serviceAccount.description ?? '' },
          ...(environments ?? []).map((environment) => ({
            label: environment.name,
            cell: (serviceAccount: ServiceAccount) => serviceAccountLevel(serviceAccount, environment.name),
          })),
          { label: 'Created', cell: (serviceAccount) => <When at={serviceAccount.createdAt} otherwise="" /> },
        ]}
        actions={
          manages
            ? (serviceAccount) => (
                <div class="row-buttons">
                  <button type="button" class="secondary" onClick={() => setEditing(serviceAccount)}>
                    Edit
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(serviceAccount)}>
                    Delete
                  </button>
                </div>
              )
            : undefined
        }
      >
        <p class="hint">
          Machine identities of this project, such as CI pipelines, each with its access per environment. Open one for
          its tokens{manages ? '' : ' (its owner and admins manage them)'}.
        </p>
        <p class="status" role="status">
          {status}
        </p>
      </List>
      {editing && environments && (
        <EditServiceAccount
          api={api}
          projectId={projectId}
          serviceAccount={editing}
          environments={environments}
          onClose={() => setEditing(undefined)}
          onSaved={(changed) => {
            setStatus(`Saved “${changed.name}”: ${accessSummary(changed)}.`);
            serviceAccounts.reload();
          }}
        />
      )}
      {deleting && (
        <DeleteServiceAccount
          api={api}
          projectId={projectId}
          serviceAccount={deleting}
          onClose={() => {
            setDeleting(undefined);
            headingRef.current?.focus();
          }}
          onDeleted={() => {
            setStatus(`Deleted the service account “${deleting.name}”.`);
            serviceAccounts.reload();
          }}
        />
      )}
    </>
  );
};
