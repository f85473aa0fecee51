import { type AuditEvent, type AuditEventType, auditEventTypes } from '@contract/audit';
import type { RouteAnswer } from '@contract/route';
import type { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Api, bodyOf, dataOf } from './api';
import { actorWords, eventSentence, type Reading, serviceAccountNamesIn, tokenNamesIn } from './event-words';
import { loadProjects, type ProjectEntry } from './projects';
import { ErrorMessage, useAction, useLoad, When } from './ui';

type Page = RouteAnswer<typeof listAuditEventsRoute>;

interface Filters {
  readonly type: AuditEventType | '';
  /** `datetime-local` values, in the reader's time zone. */
  readonly since: string;
  readonly until: string;
}

const NO_FILTERS: Filters = { type: '', since: '', until: '' };

/** The trail's query for the filters and a cursor. */
const queryOf = (filters: Filters, cursor: string | null) => ({
  ...(filters.type && { type: filters.type }),
  ...(filters.since && { since: new Date(filters.since).toISOString() }),
  ...(filters.until && { until: new Date(filters.until).toISOString() }),
  ...(cursor && { cursor }),
});

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The names of the reader's projects and tokens, and of the trail's project's service accounts, by id;
 * empty until (or unless) they load.
 */
const useKnownNames = (api: Api, projects: readonly ProjectEntry[] | undefined, projectId: string | undefined) => {
  const tokens = useLoad(() => dataOf(api.api.GET('/api/v1/tokens')));
  const serviceAccounts = useLoad(async () =>
    projectId === undefined
      ? []
      : dataOf(api.api.GET('/api/v1/projects/{projectId}/service-accounts', { params: { path: { projectId } } })),
  );
  return useMemo(
    () => ({
      projects: new Map((projects ?? []).map((project) => [project.projectId, project.name])),
      tokens: new Map((tokens.data ?? []).map((token) => [token.id, token.name])),
      serviceAccounts: new Map((serviceAccounts.data ?? []).map((account) => [account.id, account.name])),
    }),
    [projects, tokens.data, serviceAccounts.data],
  );
};

/**
 * A trail, newest first, with the API's filters and a page at a time: the caller's own, or the
 * project's when `projectId` is given.
 */
export const ActivityLog = ({
  api,
  projectId,
  projects,
}: {
  api: Api;
  projectId?: string;
  /** The reader's projects, to name them (undefined while they load). */
  projects: readonly ProjectEntry[] | undefined;
}) => {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [events, setEvents] = useState<readonly AuditEvent[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  // The filters of the pages shown: a cursor continues their query only, whatever the form holds now.
  const [shown, setShown] = useState<Filters>(NO_FILTERS);
  const { busy, error, run } = useAction();
  const known = useKnownNames(api, projects, projectId);
  const reading: Reading = {
    names: {
      projects: known.projects,
      tokens: tokenNamesIn(events ?? [], known.tokens),
      serviceAccounts: serviceAccountNamesIn(events ?? [], known.serviceAccounts),
    },
    projectId,
    time: (iso) => timeFormat.format(new Date(iso)),
  };

  const load = (applied: Filters, after: string | null) =>
    run(async () => {
      const query = queryOf(applied, after);
      const page: Page = await bodyOf(
        projectId === undefined
          ? api.api.GET('/api/v1/audit-events', { params: { query } })
          : api.api.GET('/api/v1/projects/{projectId}/audit-events', { params: { path: { projectId }, query } }),
      );
      setEvents((previous) => (after ? [...(previous ?? []), ...page.data] : page.data));
      setCursor(page.nextCursor);
      setShown(applied);
    });

  // The unfiltered trail once, on the first render.
  useEffect(() => {
    void load(NO_FILTERS, null);
  }, []);

  return (
    <>
      <form
        class="panel filters"
        aria-label="Filter activity"
        onSubmit={(event) => {
          event.preventDefault();
          void load(filters, null);
        }}
      >
        <div>
          <label for="activity-type">Type</label>
          <select
            id="activity-type"
            value={filters.type}
            onChange={(event) => setFilters({ ...filters, type: event.currentTarget.value as Filters['type'] })}
          >
            <option value="">All types</option>
            {auditEventTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="activity-since">Since</label>
          <input
            id="activity-since"
            type="datetime-local"
            value={filters.since}
            onInput={(event) => setFilters({ ...filters, since: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="activity-until">Until</label>
          <input
            id="activity-until"
            type="datetime-local"
            value={filters.until}
            onInput={(event) => setFilters({ ...filters, until: event.currentTarget.value })}
          />
        </div>
        <button type="submit" disabled={busy}>
          Apply filters
        </button>
      </form>
      <ErrorMessage id="activity-error" error={error} />
      {events === undefined ? (
        !error && <p>Loading…</p>
      ) : events.length === 0 ? (
        <p>No activity.</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">When</th>
              <th scope="col">By</th>
              <th scope="col">What happened</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id}>
                <th scope="row" data-label="Event">
                  <code>{event.type}</code>
                </th>
                <td data-label="When">
                  <When at={event.time} otherwise="" />
                </td>
                <td data-label="By">{actorWords(event, reading)}</td>
                <td data-label="What happened">{eventSentence(event, reading)}</td>
                <td data-label="From">{event.sourceIp ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void load(shown, cursor)}>
          Load more
        </button>
      )}
    </>
  );
};

/** The caller's own activity: what they did, and what happened to their tokens. */
export const ActivityScreen = ({ api }: { api: Api }) => {
  const projects = useLoad(() => loadProjects(api));
  return (
    <>
      <h1>Activity</h1>
      <p class="lead">What you did, and what happened to your tokens, newest first.</p>
      <ActivityLog api={api} projects={projects.data?.data} />
    </>
  );
};
