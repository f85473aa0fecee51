import { MAX_ALLOWED_IPS, MAX_SERVICE_ACCOUNT_TOKEN_DAYS, MAX_SERVICE_ACCOUNT_TOKENS } from '@contract/limits';
import { useState } from 'preact/hooks';
import { type Api, bodyOf, dataOf } from './api';
import { type AddressLine, addressLines, isLoopback, LOOPBACK, WorksFrom } from './create-token-form';
import { CreatedToken } from './created-token';
import { describedBy, fieldText } from './field-error';
import { List } from './list';
import type { MeState } from './me';
import { RotateToken } from './rotate-token';
import type { NewServiceAccountToken, ServiceAccount, ServiceAccountToken } from './service-account-types';
import { tokenActions, tokenUseColumns } from './token-columns';
import { isPast, type Shown } from './token-types';
import { Confirm, ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

/** The create form as typed, kept across a sign-in. */
interface TokenDraft {
  readonly name: string;
  readonly days: string;
  /** Where the token works from: the address the API sees now, or the listed ones. */
  readonly from: 'this' | 'list';
  /** One address or CIDR per line. */
  readonly addresses: string;
}

const EMPTY_DRAFT: TokenDraft = { name: '', days: '90', from: 'this', addresses: '' };

/**
 * A token of a service account: name, lifetime (1 to 365 days, required: no token of a machine lives
 * forever) and where it works from (the creating address, or a list); each refusal beside its field.
 */
const CreateServiceAccountTokenForm = ({
  api,
  projectId,
  serviceAccount,
  me,
  onCreated,
}: {
  api: Api;
  projectId: string;
  serviceAccount: ServiceAccount;
  me: MeState;
  onCreated: (token: NewServiceAccountToken) => void;
}) => {
  const [draft, setDraft, clearDraft] = useDraft<TokenDraft>(`service-account-token:${serviceAccount.id}`, EMPTY_DRAFT);
  const { busy, formError, detailsAt, run } = useAction(['name', 'ttlDays', 'allowedIps']);
  const nameError = fieldText(detailsAt('name'));
  const daysError = fieldText(detailsAt('ttlDays'));
  const addressErrors = detailsAt('allowedIps');
  const [sent, setSent] = useState<readonly AddressLine[]>([]);
  const sourceIp = me.data?.sourceIp;
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const listed = draft.from === 'list' ? addressLines(draft.addresses) : undefined;
      setSent(listed ?? []);
      // As a person's token: made from loopback, it works from either loopback address (create-token-form.tsx).
      const allowedIps = listed?.map(({ entry }) => entry) ?? (isLoopback(sourceIp) ? [...LOOPBACK] : undefined);
      const created = await dataOf(
        api.api.POST('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens', {
          params: { path: { projectId, serviceAccountId: serviceAccount.id } },
          body: { name: draft.name, ttlDays: Number(draft.days), ...(allowedIps && { allowedIps }) },
        }),
      );
      clearDraft();
      onCreated(created);
    });
  };
  return (
    <form
      class="panel"
      onSubmit={submit}
      aria-labelledby="create-sa-token-title"
      aria-describedby="create-sa-token-error"
    >
      <h3 id="create-sa-token-title">Create a token of “{serviceAccount.name}”</h3>
      <p class="hint">
        It reads (and writes) what the service account’s access allows, in this project only. At most{' '}
        {MAX_SERVICE_ACCOUNT_TOKENS} live at once.
      </p>
      <div class="expiry">
        <div>
          <label for="sa-token-name">Token name</label>
          <input
            id="sa-token-name"
            required
            maxLength={100}
            autocomplete="off"
            spellcheck={false}
            value={draft.name}
            aria-invalid={nameError !== undefined}
            aria-describedby={describedBy(nameError !== undefined && 'sa-token-name-error')}
            onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
          />
          <ErrorMessage id="sa-token-name-error" error={nameError} />
        </div>
        <div>
          <label for="sa-token-days">Expires in days</label>
          <input
            id="sa-token-days"
            type="number"
            min={1}
            max={MAX_SERVICE_ACCOUNT_TOKEN_DAYS}
            required
            value={draft.days}
            aria-invalid={daysError !== undefined}
            aria-describedby={describedBy('sa-token-days-hint', daysError !== undefined && 'sa-token-days-error')}
            onInput={(event) => setDraft({ ...draft, days: event.currentTarget.value })}
          />
          <ErrorMessage id="sa-token-days-error" error={daysError} />
        </div>
      </div>
      <p id="sa-token-days-hint" class="hint">
        1 to {MAX_SERVICE_ACCOUNT_TOKEN_DAYS} days: a machine’s token never lives forever.
      </p>
      <WorksFrom
        ids={{ field: 'sa-token', me: 'sa-me-error' }}
        label="Allowed IP addresses"
        hint={
          <>
            One IP address or network (CIDR) per line, up to {MAX_ALLOWED_IPS}, such as the runners’ egress addresses:
            203.0.113.7 or 10.0.0.0/24.
          </>
        }
        from={draft.from}
        addresses={draft.addresses}
        onChange={(change) => setDraft({ ...draft, ...change })}
        sourceIp={sourceIp}
        meError={me.error}
        errors={addressErrors}
        sent={sent}
      />
      <ErrorMessage id="create-sa-token-error" error={formError} />
      <button type="submit" disabled={busy}>
        Create token
      </button>
    </form>
  );
};

const isExpired = (token: ServiceAccountToken): boolean => isPast(token.expiresAt);

/** A token that no longer works: expired, or rotated and past its grace period. */
const hasStopped = (token: ServiceAccountToken): boolean =>
  isExpired(token) || (token.stopsAt !== null && isPast(token.stopsAt));

/**
 * The tokens of a service account, for its project's owners and admins: create one and read it once,
 * list them with their last use and where they work from, rotate one (its replacement read once),
 * revoke one.
 */
export const ServiceAccountTokens = ({
  api,
  projectId,
  serviceAccount,
  me,
}: {
  api: Api;
  projectId: string;
  serviceAccount: ServiceAccount;
  me: MeState;
}) => {
  const path = { projectId, serviceAccountId: serviceAccount.id };
  const tokens = useLoad(() =>
    bodyOf(
      api.api.GET('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens', { params: { path } }),
    ),
  );
  const [created, setCreated] = useState<Shown>();
  const [rotating, setRotating] = useState<ServiceAccountToken>();
  const [revoking, setRevoking] = useState<ServiceAccountToken>();
  const list = tokens.data?.data;
  const replacement = (id: string) => {
    const entry = list?.find((token) => token.id === id);
    return <code>{entry ? `${entry.displayPrefix}…` : id}</code>;
  };
  return (
    <>
      {created ? (
        <CreatedToken key={created.token.id} {...created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateServiceAccountTokenForm
          api={api}
          projectId={projectId}
          serviceAccount={serviceAccount}
          me={me}
          onCreated={(token) => {
            setCreated({ token });
            tokens.reload();
          }}
        />
      )}
      <List
        id="sa-tokens"
        title={`Tokens of “${serviceAccount.name}”`}
        rows={list}
        error={tokens.error}
        empty="No tokens yet."
        rowKey={(token) => token.id}
        rowClass={(token) => (hasStopped(token) ? 'expired' : undefined)}
        columns={[
          {
            label: 'Name',
            cell: (token) => (
              <>
                {token.name}
                {token.replacedBy === null ? (
                  isExpired(token) && <span class="badge">Expired</span>
                ) : (
                  <>
                    <span class="badge">Replaced</span>
                    <span class="note">Replaced by {replacement(token.replacedBy)}</span>
                  </>
                )}
              </>
            ),
          },
          { label: 'Prefix', cell: (token) => <code>{token.displayPrefix}…</code> },
          { label: 'Created', cell: (token) => <When at={token.createdAt} otherwise="" /> },
          ...tokenUseColumns<ServiceAccountToken>(),
        ]}
        actionsClass="row-actions stacked"
        actions={tokenActions<ServiceAccountToken>(setRotating, setRevoking)}
      />
      {rotating && (
        <RotateToken
          name={rotating.name}
          kept="same name and addresses"
          onClose={() => setRotating(undefined)}
          rotate={async (graceHours) => {
            const token = await dataOf(
              api.api.POST('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}/rotate', {
                params: { path: { ...path, tokenId: rotating.id } },
                body: { graceHours },
              }),
            );
            setCreated({ token, replaced: rotating });
            tokens.reload();
          }}
        />
      )}
      {revoking && (
        <Confirm
          title={`Revoke “${revoking.name}”?`}
          action="Revoke"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await api.api.DELETE('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}', {
              params: { path: { ...path, tokenId: revoking.id } },
            });
            tokens.reload();
          }}
        >
          <p>Whatever uses this token stops working at once. This cannot be undone.</p>
        </Confirm>
      )}
    </>
  );
};
