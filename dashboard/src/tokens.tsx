import {
  DEFAULT_GRACE_HOURS,
  EXPIRY_NOTICE_DAYS,
  MAX_ALLOWED_IPS,
  MAX_GRACE_HOURS,
  MAX_TTL_DAYS,
} from '@contract/limits';
import type { createTokenRoute, getMeRoute, listTokensRoute, RouteAnswer, rotateTokenRoute } from '@contract/routes';
import { type Scope, scopes } from '@contract/scopes';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { Confirm, detailText, ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

type TokenEntry = RouteAnswer<typeof listTokensRoute>['data'][number];
type NewToken = RouteAnswer<typeof createTokenRoute>['data'];
type RotatedToken = RouteAnswer<typeof rotateTokenRoute>['data'];

/** A raw token to show once: a new one, or a rotation's with the listed token it replaces. */
interface Shown {
  readonly token: NewToken | RotatedToken;
  readonly replaced?: TokenEntry;
}

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

/** One entry of the typed list: the text the API gets, and its line in the field (from 1). */
interface AddressLine {
  readonly entry: string;
  readonly line: number;
}

/** The typed list as the API takes it (each line trimmed, blank lines dropped), each with its line. */
const addressLines = (text: string): AddressLine[] =>
  text
    .split('\n')
    .map((line, index) => ({ entry: line.trim(), line: index + 1 }))
    .filter(({ entry }) => entry !== '');

/**
 * This machine's loopback addresses. Locally, a browser may reach the service over either (`localhost`
 * is `::1` to one program and `127.0.0.1` to another, e.g. the browser and curl), so a token made for
 * "this address" when the API sees a loopback one works from both; deployed, the API never sees one.
 */
const LOOPBACK = ['127.0.0.1', '::1'] as const;

const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && (LOOPBACK as readonly string[]).includes(address);

/** Whether an instant the API named (a rotated token's `stopsAt`) has come. */
const isPast = (at: string): boolean => Date.parse(at) <= Date.now();

/**
 * The raw token, once: a read-only field, a copy button and the warning that it will not come back;
 * for a rotation's, which token it replaces and when that one stops. It takes the focus, since the
 * control that led here (the form's button, a row's Rotate) is gone.
 */
const CreatedToken = ({ token, replaced, onDone }: Shown & { onDone: () => void }) => {
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
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
      <h2 id="created-title" ref={heading} tabIndex={-1}>
        Token “{token.name}” {'replaces' in token ? 'rotated' : 'created'}
      </h2>
      {'replaces' in token && (
        <p>
          It replaces {replaced ? <code>{replaced.displayPrefix}…</code> : 'the old token'}, which{' '}
          {isPast(token.replaces.stopsAt) ? (
            'has stopped working.'
          ) : (
            <>
              keeps working until <When at={token.replaces.stopsAt} otherwise="" />.
            </>
          )}
        </p>
      )}
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
  // The list as last sent, so that an error about `allowedIps.<i>` can quote its entry and line.
  const [sent, setSent] = useState<readonly AddressLine[]>([]);
  const sourceIp = me.data?.data.sourceIp;
  const addressErrors = detailsAt('allowedIps');
  const toggleScope = (scope: Scope, on: boolean) =>
    setDraft({ ...draft, scopes: on ? [...draft.scopes, scope] : draft.scopes.filter((held) => held !== scope) });
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const listed = draft.from === 'list' ? addressLines(draft.addresses) : undefined;
      setSent(listed ?? []);
      const allowedIps = listed?.map(({ entry }) => entry) ?? (isLoopback(sourceIp) ? [...LOOPBACK] : undefined);
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
          {isLoopback(sourceIp) ? `This machine (${LOOPBACK.join(' and ')})` : `This address (${sourceIp ?? '…'})`}
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
              One IP address or network (CIDR) per line, up to {MAX_ALLOWED_IPS}, e.g. 203.0.113.7 or 10.0.0.0/24.
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
                    const sentLine = sent[Number(detail.path.split('.')[1])];
                    return (
                      <li key={detail.path}>
                        {sentLine === undefined ? (
                          detailText(detail)
                        ) : (
                          <>
                            Line {sentLine.line}, <code>{sentLine.entry}</code>: {detail.message}
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

const isExpired = (token: TokenEntry): boolean => token.expiresAt !== null && isPast(token.expiresAt);

/** A token that no longer works: expired, or rotated and past its grace period. */
const hasStopped = (token: TokenEntry): boolean =>
  isExpired(token) || (token.stopsAt !== null && isPast(token.stopsAt));

const HOUR_MS = 60 * 60 * 1000;

/** Within this of its expiry, a token is marked: when its owner gets the first expiry notice. */
const SOON_MS = EXPIRY_NOTICE_DAYS[0] * 24 * HOUR_MS;

/** A live token that stops working soon. */
const expiresSoon = (token: TokenEntry): boolean =>
  token.expiresAt !== null && !isExpired(token) && Date.parse(token.expiresAt) - Date.now() <= SOON_MS;

/** The grace periods offered, within the API's 0 to {@link MAX_GRACE_HOURS} hours; its default is chosen first. */
const GRACE_CHOICES = [0, 1, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS].map((hours) => {
  const span = hours > 24 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hour${hours === 1 ? '' : 's'}`;
  return {
    hours,
    label: hours === 0 ? 'No grace (stops now)' : hours === DEFAULT_GRACE_HOURS ? `${span} (default)` : span,
  };
});

/** The question before a rotation, with the grace period the old token keeps working for. */
const RotateToken = ({
  api,
  token,
  onRotated,
  onClose,
}: {
  api: Api;
  token: TokenEntry;
  onRotated: (rotated: RotatedToken) => void;
  onClose: () => void;
}) => {
  const [graceHours, setGraceHours] = useState<number>(DEFAULT_GRACE_HOURS);
  return (
    <Confirm
      title={`Rotate “${token.name}”?`}
      action="Rotate"
      onClose={onClose}
      onConfirm={async () => {
        const rotated = await api<RouteAnswer<typeof rotateTokenRoute>>(
          'POST',
          `/api/v1/tokens/${encodeURIComponent(token.id)}/rotate`,
          { graceHours },
        );
        onRotated(rotated.data);
      }}
    >
      <p>
        A new token with the same name, scopes and addresses replaces “{token.name}”. The old one keeps working for the
        grace period you choose (or until it expires, if sooner), so that what uses it can move to the new one.
      </p>
      <label for="rotate-grace">Grace period</label>
      <select
        id="rotate-grace"
        value={String(graceHours)}
        onChange={(event) => setGraceHours(Number(event.currentTarget.value))}
      >
        {GRACE_CHOICES.map((choice) => (
          <option key={choice.hours} value={String(choice.hours)}>
            {choice.label}
          </option>
        ))}
      </select>
    </Confirm>
  );
};

/**
 * Tokens: create one and read it once, list them with their last use and where they work from, rotate
 * one (its replacement read once), revoke one.
 */
export const TokensScreen = ({ api }: { api: Api }) => {
  const tokens = useLoad(() => api<RouteAnswer<typeof listTokensRoute>>('GET', '/api/v1/tokens'));
  const [created, setCreated] = useState<Shown>();
  const [rotating, setRotating] = useState<TokenEntry>();
  const [revoking, setRevoking] = useState<TokenEntry>();
  const list = tokens.data?.data;
  /** What replaces a rotated token: its prefix if it is listed, else its id. */
  const replacement = (id: string) => {
    const entry = list?.find((token) => token.id === id);
    return <code>{entry ? `${entry.displayPrefix}…` : id}</code>;
  };
  return (
    <>
      <h1>API tokens</h1>
      <p class="lead">Tokens let scripts and automation call the service. Each acts as you, within its scopes.</p>
      {created ? (
        <CreatedToken key={created.token.id} {...created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateTokenForm
          api={api}
          onCreated={(token) => {
            setCreated({ token });
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
                <tr key={token.id} class={hasStopped(token) ? 'expired' : undefined}>
                  <th scope="row" data-label="Name">
                    {token.name}
                    {token.replacedBy === null ? (
                      <>
                        {isExpired(token) && <span class="badge">Expired</span>}
                        {expiresSoon(token) && <span class="badge">Expires soon</span>}
                      </>
                    ) : (
                      <>
                        <span class="badge">Replaced</span>
                        <span class="note">Replaced by {replacement(token.replacedBy)}</span>
                      </>
                    )}
                  </th>
                  <td data-label="Prefix">
                    <code>{token.displayPrefix}…</code>
                  </td>
                  <td data-label="Scopes">{token.scopes.join(', ')}</td>
                  <td data-label="Created">
                    <When at={token.createdAt} otherwise="" />
                  </td>
                  <td data-label="Expires">
                    {token.stopsAt === null ? (
                      <When at={token.expiresAt} otherwise="never" />
                    ) : (
                      <>
                        {isPast(token.stopsAt) ? 'Stopped ' : 'Stops working '}
                        <When at={token.stopsAt} otherwise="" />
                      </>
                    )}
                  </td>
                  <td data-label="Last used">
                    <When at={token.lastUsedAt} otherwise="never" />
                    {token.lastUsedIp && <span class="from"> from {token.lastUsedIp}</span>}
                  </td>
                  <td data-label="Works from" class="addresses">
                    {token.allowedIps === null ? 'Creating address' : token.allowedIps.join(', ')}
                  </td>
                  <td class="row-actions stacked">
                    {token.replacedBy === null && (
                      <button type="button" class="secondary" onClick={() => setRotating(token)}>
                        Rotate
                      </button>
                    )}
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
      {rotating && (
        <RotateToken
          api={api}
          token={rotating}
          onClose={() => setRotating(undefined)}
          onRotated={(token) => {
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
