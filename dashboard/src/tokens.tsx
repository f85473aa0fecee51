import { MAX_TTL_DAYS } from '@contract/limits';
import type { createTokenRoute, getMeRoute, listTokensRoute, RouteAnswer } from '@contract/routes';
import { type Scope, scopes } from '@contract/scopes';
import { useState } from 'preact/hooks';
import type { Api } from './api';
import { Confirm, detailText, ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

type TokenEntry = RouteAnswer<typeof listTokensRoute>['data'][number];
type NewToken = RouteAnswer<typeof createTokenRoute>['data'];

interface TokenDraft {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly days: string;
  readonly never: boolean;
  /** Where the token works from: the address the API sees now, or the listed ones. */
  readonly from: 'this' | 'list';
  /** The list as typed: one address or CIDR per line. */
  readonly addresses: string;
}

const EMPTY_DRAFT: TokenDraft = { name: '', scopes: [], days: '30', never: false, from: 'this', addresses: '' };

/** The typed list as the API takes it: each line trimmed, blank lines dropped. */
const addressLines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The raw token, once: a read-only field, a copy button and the warning that it will not come back. */
const CreatedToken = ({ token, onDone }: { token: NewToken; onDone: () => void }) => {
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.rawToken);
      setStatus('Copied to the clipboard.');
    } catch {
      // Some browsers refuse the clipboard to a page; the selected text is one keystroke away.
      document.getElementById('new-token')?.focus();
      setStatus('The browser did not allow copying: the token is selected, press Ctrl+C or ⌘C.');
    }
  };
  return (
    <section class="panel created" aria-labelledby="created-title">
      <h2 id="created-title">Token “{token.name}” created</h2>
      <p class="warning">Copy it now. It will not be shown again.</p>
      <label for="new-token">New token</label>
      <div class="copy-row">
        <input
          id="new-token"
          readOnly
          value={token.rawToken}
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="status" role="status">
        {status}
      </p>
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
};

const CreateTokenForm = ({ api, onCreated }: { api: Api; onCreated: (token: NewToken) => void }) => {
  const [draft, setDraft, clearDraft] = useDraft<TokenDraft>('token', EMPTY_DRAFT);
  // The address the API sees: the dashboard cannot know it without asking.
  const me = useLoad(() => api<RouteAnswer<typeof getMeRoute>>('GET', '/api/v1/me'));
  const { busy, error, detailsAt, run } = useAction(['allowedIps']);
  // The list as last sent, so that an error about `allowedIps.<i>` can quote its entry.
  const [sent, setSent] = useState<readonly string[]>([]);
  const addressErrors = detailsAt('allowedIps');
  const toggleScope = (scope: Scope, on: boolean) =>
    setDraft({ ...draft, scopes: on ? [...draft.scopes, scope] : draft.scopes.filter((held) => held !== scope) });
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const allowedIps = draft.from === 'list' ? addressLines(draft.addresses) : undefined;
      setSent(allowedIps ?? []);
      const body = {
        name: draft.name,
        scopes: scopes.filter((scope) => draft.scopes.includes(scope)),
        ttlDays: draft.never ? null : Number(draft.days),
        ...(allowedIps && { allowedIps }),
      };
      const created = await api<RouteAnswer<typeof createTokenRoute>>('POST', '/api/v1/tokens', body);
      clearDraft();
      onCreated(created.data);
    });
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-token-title" aria-describedby="create-token-error">
      <h2 id="create-token-title">Create a token</h2>
      <label for="token-name">Name</label>
      <input
        id="token-name"
        required
        maxLength={100}
        value={draft.name}
        onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
      />
      <fieldset>
        <legend>Scopes</legend>
        {scopes.map((scope) => (
          <label class="check" key={scope}>
            <input
              type="checkbox"
              checked={draft.scopes.includes(scope)}
              onChange={(event) => toggleScope(scope, event.currentTarget.checked)}
            />
            {scope}
          </label>
        ))}
      </fieldset>
      <div class="expiry">
        <div>
          <label for="token-days">Expires in days</label>
          <input
            id="token-days"
            type="number"
            min={1}
            max={MAX_TTL_DAYS}
            required={!draft.never}
            disabled={draft.never}
            value={draft.days}
            onInput={(event) => setDraft({ ...draft, days: event.currentTarget.value })}
          />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.never}
            onChange={(event) => setDraft({ ...draft, never: event.currentTarget.checked })}
          />
          Never expires
        </label>
      </div>
      <fieldset>
        <legend>Works from</legend>
        <label class="check">
          <input
            type="radio"
            name="token-from"
            checked={draft.from === 'this'}
            onChange={() => setDraft({ ...draft, from: 'this' })}
          />
          This address ({me.data?.data.sourceIp ?? '…'})
        </label>
        <label class="check">
          <input
            type="radio"
            name="token-from"
            checked={draft.from === 'list'}
            onChange={() => setDraft({ ...draft, from: 'list' })}
          />
          These addresses
        </label>
        <ErrorMessage id="me-error" error={me.error} />
        {draft.from === 'list' && (
          <>
            <label for="token-addresses">Addresses</label>
            <p id="token-addresses-hint" class="hint">
              One IP address or network (CIDR) per line, up to 10, e.g. 203.0.113.7 or 10.0.0.0/24.
            </p>
            <textarea
              id="token-addresses"
              rows={3}
              required
              spellcheck={false}
              value={draft.addresses}
              aria-invalid={addressErrors.length > 0}
              aria-describedby={`token-addresses-hint${addressErrors.length > 0 ? ' token-addresses-error' : ''}`}
              onInput={(event) => setDraft({ ...draft, addresses: event.currentTarget.value })}
            />
            {addressErrors.length > 0 && (
              <div id="token-addresses-error" class="error" role="alert">
                <ul>
                  {addressErrors.map((detail) => {
                    const entry = sent[Number(detail.path.split('.')[1])];
                    return (
                      <li key={detail.path}>
                        {entry === undefined ? (
                          detailText(detail)
                        ) : (
                          <>
                            <code>{entry}</code> ({detail.path}): {detail.message}
                          </>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
          </>
        )}
      </fieldset>
      <ErrorMessage id="create-token-error" error={error} />
      <button type="submit" disabled={busy}>
        Create token
      </button>
    </form>
  );
};

const isExpired = (token: TokenEntry): boolean => token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();

const SOON_MS = 7 * 24 * 60 * 60 * 1000;

/** A live token that stops working within 7 days. */
const expiresSoon = (token: TokenEntry): boolean =>
  token.expiresAt !== null && !isExpired(token) && Date.parse(token.expiresAt) - Date.now() <= SOON_MS;

/** Tokens: create one and read it once, list them with their last use and where they work from, revoke one. */
export const TokensScreen = ({ api }: { api: Api }) => {
  const tokens = useLoad(() => api<RouteAnswer<typeof listTokensRoute>>('GET', '/api/v1/tokens'));
  const [created, setCreated] = useState<NewToken>();
  const [revoking, setRevoking] = useState<TokenEntry>();
  const list = tokens.data?.data;
  return (
    <>
      <h1>API tokens</h1>
      <p class="lead">Tokens let scripts and automation call the service. Each acts as you, within its scopes.</p>
      {created ? (
        <CreatedToken token={created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateTokenForm
          api={api}
          onCreated={(token) => {
            setCreated(token);
            tokens.reload();
          }}
        />
      )}
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">Your tokens</h2>
        <ErrorMessage id="tokens-error" error={tokens.error} />
        {list === undefined ? (
          !tokens.error && <p>Loading…</p>
        ) : list.length === 0 ? (
          <p>No tokens yet.</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Works from</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((token) => (
                <tr key={token.id} class={isExpired(token) ? 'expired' : undefined}>
                  <th scope="row" data-label="Name">
                    {token.name}
                    {isExpired(token) && <span class="badge">Expired</span>}
                    {expiresSoon(token) && <span class="badge">Expires soon</span>}
                  </th>
                  <td data-label="Prefix">
                    <code>{token.displayPrefix}…</code>
                  </td>
                  <td data-label="Scopes">{token.scopes.join(', ')}</td>
                  <td data-label="Created">
                    <When at={token.createdAt} otherwise="" />
                  </td>
                  <td data-label="Expires">
                    <When at={token.expiresAt} otherwise="never" />
                  </td>
                  <td data-label="Last used">
                    <When at={token.lastUsedAt} otherwise="never" />
                    {token.lastUsedIp && <span class="from"> from {token.lastUsedIp}</span>}
                  </td>
                  <td data-label="Works from" class="addresses">
                    {token.allowedIps === null ? 'Creating address' : token.allowedIps.join(', ')}
                  </td>
                  <td class="row-actions">
                    <button type="button" class="danger" onClick={() => setRevoking(token)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {revoking && (
        <Confirm
          title={`Revoke “${revoking.name}”?`}
          action="Revoke"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await api('DELETE', `/api/v1/tokens/${encodeURIComponent(revoking.id)}`);
            tokens.reload();
          }}
        >
          <p>Anything that uses this token stops working at once. This cannot be undone.</p>
        </Confirm>
      )}
    </>
  );
};
