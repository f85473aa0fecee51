import { parseShareLink, SHARE_PATH_PREFIX } from '@client/index';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ActivityScreen } from './activity';
import { AddedNotices } from './added-notices';
import { type Api, createApi } from './api';
import { takeLinkKey } from './link-key';
import { loadMe } from './me';
import { ProjectScreen, type ProjectTab, projectTabOf } from './project';
import { ProjectsScreen } from './projects';
import type { Session, SessionState } from './session';
import { ShareLinkPage } from './share-link-page';
import { SharesScreen } from './shares';
import { TokensScreen } from './tokens';
import { useLoad } from './ui';

/**
 * The screen the address names: a share's link page at `/s/<id>#<key>` (the key taken out of the
 * address as it is read: `takeLinkKey`); at `/`, the screen its hash names: `#/tokens` (the default),
 * `#/projects`, a project's home at `#/projects/<id>` (its Secrets) and its other tabs at
 * `#/projects/<id>/<tab>` (`secrets`, `members`, `compare`, `changes`, `service-accounts`, `activity`,
 * `settings`), `#/activity`, `#/share`. `#/projects/<id>/service-accounts/<sa id>` opens a service
 * account's page.
 * `#/projects/<id>/secrets/<environment>/<name>` opens the Secrets of that environment filtered by that
 * name: where a revealed value's reference leads.
 */
type Screen =
  | { name: 'tokens' }
  | { name: 'projects' }
  | {
      name: 'project';
      projectId: string;
      tab: ProjectTab;
      environment?: string;
      filter?: string;
      serviceAccountId?: string;
    }
  | { name: 'activity' }
  | { name: 'share' }
  /** `id` is undefined when the path names no share. */
  | { name: 'share-link'; id: string | undefined; key: string | undefined };

/** Whether the page is a share's link page. */
const isShareLink = (): boolean => location.pathname.startsWith(SHARE_PATH_PREFIX);

/** The id of the link page's address (a malformed one names no share), and the key taken from it. */
const shareLinkScreen = (key: string | undefined): Screen => {
  let parsed: ReturnType<typeof parseShareLink>;
  try {
    parsed = parseShareLink(location.href);
  } catch {
    // A path of broken percent-escapes names no share.
  }
  return { name: 'share-link', id: parsed?.id, key };
};

/** A part of the address, decoded; one of broken percent-escapes as it is. */
const decoded = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

const screenOf = (hash: string, linkKey: string | undefined): Screen => {
  if (isShareLink()) return shareLinkScreen(linkKey);
  const [, first, second, third, fourth, fifth] = hash.replace(/^#/, '').split('/');
  if (first === 'activity') return { name: 'activity' };
  if (first === 'share') return { name: 'share' };
  if (first === 'projects' && second) {
    const tab = projectTabOf(third);
    const place =
      tab === 'secrets' && fourth
        ? { environment: decoded(fourth), filter: decoded(fifth ?? '') }
        : tab === 'service-accounts' && fourth
          ? { serviceAccountId: decoded(fourth) }
          : {};
    return { name: 'project', projectId: decodeURIComponent(second), tab, ...place };
  }
  if (first === 'projects') return { name: 'projects' };
  return { name: 'tokens' };
};

/** The screen the address names; a link page's key is the one taken at start, or from a link pasted over it. */
const useScreen = (startKey: string | undefined): Screen => {
  const [hash, setHash] = useState(location.hash);
  const [linkKey, setLinkKey] = useState(startKey);
  useEffect(() => {
    const follow = () => {
      // A link pasted over this one: its key leaves the address as it is read, too.
      const taken = takeLinkKey();
      if (taken !== undefined) setLinkKey(taken);
      setHash(location.hash);
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return screenOf(hash, linkKey);
};

const SignInScreen = ({
  session,
  notice,
  linkKey,
}: {
  session: Session;
  notice: string | undefined;
  /** The key of the link page signed in from, to come back to it whole. */
  linkKey: string | undefined;
}) => {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <header class="top">
        <span class="brand">Secrets Service</span>
      </header>
      <main class="sign-in">
        <h1>Sign in to Secrets Service</h1>
        <p>
          {isShareLink()
            ? 'Someone shared a secret with you. Sign in to see who, and to reveal it.'
            : 'Keep secrets per project and environment, share one through a link that expires, and give scripts API tokens to read them.'}
        </p>
        {notice && (
          <p class="error" role="alert">
            {notice}
          </p>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            session.signIn(linkKey === undefined ? undefined : `#${linkKey}`).catch(() => setBusy(false));
          }}
        >
          Sign in
        </button>
      </main>
    </>
  );
};

const NavLink = ({ href, current, children }: { href: string; current: boolean; children: string }) => (
  <a href={href} aria-current={current ? 'page' : undefined}>
    {children}
  </a>
);

/**
 * The signed-in person's screens, beneath the notices of the projects someone added them to; the
 * caller as the API sees them (`GET /me`) is read once a page load, for the notices and the token form.
 */
const Screens = ({ api, screen }: { api: Api; screen: Exclude<Screen, { name: 'share-link' }> }) => {
  const me = useLoad(() => loadMe(api));
  // The projects opened or left since the page loaded: their notices are gone.
  const [settled, setSettled] = useState<ReadonlySet<string>>(() => new Set());
  // Counts the projects left, so that the project list reads the memberships again.
  const [departures, setDepartures] = useState(0);
  const settle = (projectId: string) => setSettled((previous) => new Set(previous).add(projectId));
  const leave = (projectId: string) => {
    settle(projectId);
    setDepartures((count) => count + 1);
  };
  return (
    <main>
      <AddedNotices
        api={api}
        addedTo={me.data?.addedTo}
        hidden={screen.name === 'project' ? new Set(settled).add(screen.projectId) : settled}
        onLeft={leave}
      />
      {screen.name === 'tokens' && <TokensScreen api={api} me={me} />}
      {screen.name === 'projects' && <ProjectsScreen key={departures} api={api} />}
      {screen.name === 'project' && (
        <ProjectScreen
          key={screen.projectId}
          api={api}
          projectId={screen.projectId}
          tab={screen.tab}
          environment={screen.environment}
          filter={screen.filter}
          serviceAccountId={screen.serviceAccountId}
          me={me}
          onOpened={settle}
          onLeft={(projectId) => {
            leave(projectId);
            location.hash = '#/projects';
          }}
        />
      )}
      {screen.name === 'activity' && <ActivityScreen api={api} />}
      {screen.name === 'share' && <SharesScreen api={api} />}
    </main>
  );
};

/**
 * The dashboard: the sign-in screen, or the signed-in person's tokens, projects, members, activity and
 * shares, or a share's link page.
 */
export const App = ({ session, linkKey }: { session: Session; linkKey: string | undefined }) => {
  const [state, setState] = useState<SessionState>(session.initial);
  const screen = useScreen(linkKey);
  const { user } = state;
  const api = useMemo(
    () =>
      createApi(
        session.config,
        () => user?.id_token ?? '',
        () => {
          void session.forget();
          setState({ user: undefined, notice: 'Your session expired. Sign in again.' });
        },
      ),
    [session, user],
  );
  if (!user) {
    return (
      <SignInScreen
        session={session}
        notice={state.notice}
        linkKey={screen.name === 'share-link' ? screen.key : undefined}
      />
    );
  }
  const email = typeof user.profile.email === 'string' ? user.profile.email : user.profile.sub;
  return (
    <>
      <header class="top">
        <span class="brand">Secrets Service</span>
        {/* From `/` as from a link page: a hash alone would stay on the link page's path. */}
        <nav aria-label="Main">
          <NavLink href="/#/tokens" current={screen.name === 'tokens'}>
            Tokens
          </NavLink>
          <NavLink href="/#/projects" current={screen.name === 'projects' || screen.name === 'project'}>
            Projects
          </NavLink>
          <NavLink href="/#/activity" current={screen.name === 'activity'}>
            Activity
          </NavLink>
          <NavLink href="/#/share" current={screen.name === 'share'}>
            Share
          </NavLink>
        </nav>
        <span class="who">{email}</span>
        <button type="button" class="secondary" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </header>
      {screen.name === 'share-link' ? (
        <main>
          {/* A new key in the address bar (a corrected link) starts the page afresh. */}
          <ShareLinkPage key={`${screen.id}#${screen.key}`} api={api} id={screen.id} linkKey={screen.key} />
        </main>
      ) : (
        <Screens api={api} screen={screen} />
      )}
    </>
  );
};
