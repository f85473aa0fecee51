import type { Environment } from '@client/index';
import type { ProjectRole } from '@contract/roles';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { ApplyWithoutApproval, ProposedValues } from './change-dialogs';
import { ageText, type ChangeRequest, changeText, counted, openFirst, statusText } from './change-words';
import { ChosenEnvironment, chosenOf } from './environment-choice';
import { List } from './list';
import { ErrorMessage, errorText, useLoad } from './ui';

/** The routes of the steps on an open request that carry no body. */
const STEP_PATHS = {
  approve: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/approve',
  reject: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/reject',
  cancel: '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/cancel',
} as const;

/** A step on an open request that carries no body. */
type Step = keyof typeof STEP_PATHS;

/** What the status line says once a step is taken, by the request as the API answered it. */
const stepText = (step: Step | 'apply', request: ChangeRequest): string => {
  switch (step) {
    case 'approve':
      return request.status === 'applied'
        ? `Approved: the change is applied to ${request.environment}.`
        : `Approved: ${request.approvals.length} of ${counted(request.approvalsNeeded, 'approval')}.`;
    case 'reject':
      return 'Rejected: nothing is written.';
    case 'cancel':
      return 'Cancelled: nothing is written.';
    case 'apply':
      return `Applied without approval to ${request.environment}.`;
  }
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One environment's change requests, open first, each with its diff by name, note, status, author and
 * age; Show values (a recorded read) while it is open; Approve and Reject for owners and admins other
 * than its author, Cancel for its author, and Apply without approval (with a reason) for the owner.
 * What a step did is said in a status line, a refusal in the API's words on its row.
 */
const EnvironmentChanges = ({
  api,
  projectId,
  environment,
  role,
  userId,
  onApplied,
}: {
  api: Api;
  projectId: string;
  environment: Environment;
  role: ProjectRole | undefined;
  /** The person's own id: the author of a request may cancel it, not approve it. */
  userId: string | undefined;
  /** A request was applied: the environment's secrets changed. */
  onApplied: () => void;
}) => {
  const path = { projectId, environment: environment.name };
  const requests = useLoad(() =>
    dataOf(
      api.api.GET('/api/v1/projects/{projectId}/environments/{environment}/change-requests', { params: { path } }),
    ),
  );
  const [status, setStatus] = useState('');
  const [failed, setFailed] = useState<{ id: string; error: string }>();
  const [busy, setBusy] = useState<string>();
  const [values, setValues] = useState<Record<string, string>>();
  const [applying, setApplying] = useState<ChangeRequest>();
  /** Calls the API about a request, one call at a time; a refusal stays on its row. */
  const take = async (request: ChangeRequest, call: () => Promise<string>) => {
    if (busy !== undefined) return;
    setBusy(request.id);
    setFailed(undefined);
    setStatus('');
    try {
      setStatus(await call());
    } catch (failure) {
      setFailed({ id: request.id, error: errorText(failure) });
    } finally {
      setBusy(undefined);
    }
  };
  const answered = (request: ChangeRequest, step: Step | 'apply') => {
    if (request.status === 'applied') onApplied();
    return stepText(step, request);
  };
  // The list is read again after a step, taken or refused: a refused one may have closed the request.
  const stepOn = (request: ChangeRequest, step: Step) =>
    take(request, async () => {
      try {
        const done = await dataOf(api.api.POST(STEP_PATHS[step], { params: { path: { ...path, id: request.id } } }));
        return answered(done, step);
      } finally {
        requests.reload();
      }
    });
  const showValues = (request: ChangeRequest) =>
    take(request, async () => {
      setValues(
        await dataOf(
          api.api.GET('/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/values', {
            params: { path: { ...path, id: request.id } },
          }),
        ),
      );
      return 'Showing the proposed values. The read is recorded.';
    });
  const apply = async (request: ChangeRequest, reason: string) => {
    try {
      const done = await dataOf(
        api.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/apply', {
          params: { path: { ...path, id: request.id } },
          body: { reason },
        }),
      );
      setApplying(undefined);
      setStatus(answered(done, 'apply'));
    } finally {
      requests.reload();
    }
  };
  const now = new Date();
  const button = (request: ChangeRequest, label: string, onClick: () => void, danger = false) => (
    <button type="button" class={danger ? 'danger' : 'secondary'} aria-busy={busy === request.id} onClick={onClick}>
      {label}
    </button>
  );
  const actions = (request: ChangeRequest) => {
    // Who the person is decides which steps are theirs: none is offered before that is known.
    if (userId === undefined) return null;
    const open = request.status === 'open';
    const own = request.author.userId === userId;
    const manages = role === 'owner' || role === 'admin';
    return (
      <>
        <div class="row-buttons column">
          {open &&
            request.changes.some((change) => change.action === 'set') &&
            button(request, 'Show values', () => void showValues(request))}
          {open && manages && !own && button(request, 'Approve', () => void stepOn(request, 'approve'))}
          {open && manages && !own && button(request, 'Reject', () => void stepOn(request, 'reject'), true)}
          {open && own && button(request, 'Cancel', () => void stepOn(request, 'cancel'))}
          {open && role === 'owner' && button(request, 'Apply without approval', () => setApplying(request), true)}
        </div>
        <ErrorMessage id={`change-error-${request.id}`} error={failed?.id === request.id ? failed.error : undefined} />
      </>
    );
  };
  return (
    <>
      <List
        id="changes"
        title={
          <>
            Change requests in {environment.name}
            {environment.protected && (
              <>
                {' '}
                <span class="badge protected">Protected</span>
              </>
            )}
          </>
        }
        rows={requests.data && openFirst(requests.data)}
        error={requests.error}
        empty={`No change requests in ${environment.name}.`}
        rowKey={(request) => request.id}
        rowClass={(request) => (request.status === 'open' ? undefined : 'expired')}
        columns={[
          {
            label: 'Change',
            cell: (request) => (
              <ul class="diff">
                {request.changes.map((change) => (
                  <li key={change.name}>{changeText(change)}</li>
                ))}
              </ul>
            ),
          },
          { label: 'Note', cell: (request) => request.note ?? '' },
          { label: 'Status', cell: statusText },
          {
            label: 'Proposed',
            cell: (request) => (
              <>
                <span class="who-changed">{request.author.email ?? request.author.userId}</span>
                <span class="note">
                  <time dateTime={request.createdAt} title={dateFormat.format(new Date(request.createdAt))}>
                    {ageText(request.createdAt, now)}
                  </time>
                </span>
              </>
            ),
          },
        ]}
        actions={actions}
      >
        <p class="hint">
          {environment.protected
            ? `Open requests first. A request is applied once it has its approvals, each from an owner or admin other than its author, within 14 days.`
            : `${environment.name} is not protected: its changes are written at once. Its earlier requests stay listed.`}
        </p>
        <p class="status" role="status">
          {status}
        </p>
      </List>
      {values && <ProposedValues values={values} onClose={() => setValues(undefined)} />}
      {applying && (
        <ApplyWithoutApproval onApply={(reason) => apply(applying, reason)} onClose={() => setApplying(undefined)} />
      )}
    </>
  );
};

/**
 * A project's Changes tab: its environments as on the Secrets tab, and the chosen one's change
 * requests (see `EnvironmentChanges`), unless the person has no access there.
 */
export const ChangesPanel = ({
  api,
  projectId,
  environments,
  error,
  chosen,
  role,
  settingsHref,
  onChoose,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  /** The environment chosen; the first when it is not one of them. */
  chosen: string | undefined;
  role: ProjectRole | undefined;
  /** Where environments are added: the project's Settings. */
  settingsHref: string;
  onChoose: (name: string) => void;
  /** An environment's secrets changed: the counts are to be read again. */
  onChanged: () => void;
}) => {
  const me = useLoad(() => dataOf(api.api.GET('/api/v1/me')));
  const current = chosenOf(environments, chosen);
  return (
    <ChosenEnvironment
      environments={environments}
      error={error}
      current={current}
      manages={role === 'owner' || role === 'admin'}
      settingsHref={settingsHref}
      onChoose={onChoose}
    >
      {(environment) => (
        <EnvironmentChanges
          key={environment.name}
          api={api}
          projectId={projectId}
          environment={environment}
          role={role}
          userId={me.data?.userId}
          onApplied={onChanged}
        />
      )}
    </ChosenEnvironment>
  );
};
