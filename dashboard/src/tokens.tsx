import { EXPIRY_NOTICE_DAYS } from '@contract/limits';
import { useState } from 'preact/hooks';
import { type Api, bodyOf, dataOf } from './api';
import { CreateTokenForm } from './create-token-form';
import { CreatedToken } from './created-token';
import { List } from './list';
import type { MeState } from './me';
import { loadProjects } from './projects';
import { RotateToken } from './rotate-token';
import { tokenActions, tokenUseColumns } from './token-columns';
import { isPast, type Shown, type TokenEntry } from './token-types';
import { Confirm, useLoad, When } from './ui';

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

/**
 * Tokens: create one and read it once, list them with their last use and where they work from, rotate
 * one (its replacement read once), revoke one.
 */
export const TokensScreen = ({ api, me }: { api: Api; me: MeState }) => {
  const tokens = useLoad(() => bodyOf(api.api.GET('/api/v1/tokens')));
  // The user's projects: what a new token may be limited to, and the names of a limited token's.
  const projects = useLoad(() => loadProjects(api));
  const projectList = projects.data?.data;
  /** Where a token reaches: all projects, or its projects by name (an id for one the user left). */
  const reach = (token: TokenEntry): string =>
    token.projects === null
      ? 'All'
      : token.projects
          .map((entry) => {
            const name = projectList?.find((project) => project.projectId === entry.projectId)?.name ?? entry.projectId;
            return entry.environments === null ? name : `${name} (${entry.environments.join(', ')})`;
          })
          .join('; ');
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
          me={me}
          projects={projectList}
          onCreated={(token) => {
            setCreated({ token });
            tokens.reload();
          }}
        />
      )}
      <List
        id="tokens"
        title="Your tokens"
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
              </>
            ),
          },
          { label: 'Prefix', cell: (token) => <code>{token.displayPrefix}…</code> },
          { label: 'Scopes', cell: (token) => token.scopes.join(', ') },
          { label: 'Created', cell: (token) => <When at={token.createdAt} otherwise="" /> },
          ...tokenUseColumns<TokenEntry>(),
          { label: 'Projects', cell: reach },
        ]}
        actionsClass="row-actions stacked"
        actions={tokenActions<TokenEntry>(setRotating, setRevoking)}
      />
      {rotating && (
        <RotateToken
          name={rotating.name}
          kept="same name, scopes and addresses"
          onClose={() => setRotating(undefined)}
          rotate={async (graceHours) => {
            const token = await dataOf(
              api.api.POST('/api/v1/tokens/{id}/rotate', {
                params: { path: { id: rotating.id } },
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
            await api.api.DELETE('/api/v1/tokens/{id}', { params: { path: { id: revoking.id } } });
            tokens.reload();
          }}
        >
          <p>Anything that uses this token stops working at once. This cannot be undone.</p>
        </Confirm>
      )}
    </>
  );
};
