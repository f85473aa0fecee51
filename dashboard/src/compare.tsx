import type { Environment, SecretComparison } from '@client/index';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { type ChangeRequest, counted } from './change-words';
import {
  choiceProblem,
  defaultPair,
  differencesFirst,
  type EnvironmentPair,
  isPromotable,
  promotedText,
  statusWords,
  summaryText,
  versionText,
  writtenText,
} from './compare-words';
import { fieldText } from './field-error';
import { List } from './list';
import { NoteField, noteOf, PROPOSE } from './proposals';
import { ErrorMessage, Modal, useAction, useLoad } from './ui';

/**
 * Asks before a promote, naming each secret and what it becomes in `to`; into a protected `to` it says
 * the promote is proposed as a change request that waits for approval, with an optional note. The API's
 * words stay in the dialog when it refuses.
 */
const PromoteDialog = ({
  pair,
  target,
  rows,
  onPromote,
  onClose,
}: {
  pair: EnvironmentPair;
  target: Environment;
  rows: readonly SecretComparison[];
  onPromote: (note: string | undefined) => Promise<void>;
  onClose: () => void;
}) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState('');
  const { busy, formError, detailsAt, run } = useAction(['note']);
  const what = `${counted(rows.length, 'secret')} from ${pair.from} to ${pair.to}`;
  const submit = (event: Event) => {
    event.preventDefault();
    // Closed as Cancel closes it, so that the focus goes back to Promote.
    void run(() => onPromote(noteOf(note).note)).then((done) => done && dialog.current?.close());
  };
  return (
    <Modal labelledBy="promote-title" onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="promote-title">
        <h2 id="promote-title">{target.protected ? `${PROPOSE}: promote ${what}` : `Promote ${what}?`}</h2>
        <p>
          {target.protected
            ? `${pair.to} is protected: this is proposed as a change request, and nothing is written until it has ${counted(target.approvals, 'approval')}.`
            : `Their current values in ${pair.from} are written into ${pair.to} at once, each as its next version there.`}
        </p>
        <ul class="diff">
          {rows.map((row) => (
            <li key={row.name}>{promotedText(row, pair)}</li>
          ))}
        </ul>
        {target.protected && (
          <NoteField id="promote-note" value={note} error={fieldText(detailsAt('note'))} onInput={setNote} />
        )}
        <ErrorMessage id="promote-error" error={formError} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {target.protected ? PROPOSE : 'Promote'}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};

/**
 * Two environments' secrets side by side by name, differences first, never with values (a compare is
 * not a recorded read): each one's status in words and its version in each, with a count. Where the
 * person writes in `to`, a checkbox on each secret a promote can copy and Promote, which asks first;
 * a protected `to` gets a change request instead of a write, with a link to Changes.
 */
const Comparison = ({
  api,
  projectId,
  pair,
  target,
  changesHref,
  onChanged,
  onProposed,
}: {
  api: Api;
  projectId: string;
  pair: EnvironmentPair;
  /** The environment `to`, as the project's list has it: its protection and the person's access. */
  target: Environment;
  /** Where proposed changes wait for approval: the project's Changes. */
  changesHref: string;
  /** Secrets were written in `to`: the environments' counts are to be read again. */
  onChanged: () => void;
  /** A change request of `to` was proposed: Changes is to open at `to`. */
  onProposed: () => void;
}) => {
  const comparison = useLoad(() => api.compare(projectId, pair.from, pair.to));
  const [differencesOnly, setDifferencesOnly] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<ComponentChildren>('');
  // The choice is cleared as the dialog closes after a promote, not before: the dialog names it till then.
  const promoted = useRef(false);
  const rows = comparison.data;
  const promotes = target.access === 'write';
  // A secret that is no longer promotable once the comparison is read again is no longer chosen.
  useEffect(() => {
    if (!rows) return;
    const still = new Set(rows.filter(isPromotable).map((row) => row.name));
    setChosen((previous) => new Set([...previous].filter((name) => still.has(name))));
  }, [rows]);

  const choose = (name: string, on: boolean) => {
    setProblem(undefined);
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  };
  const openDialog = () => {
    const refused = choiceProblem(chosen.size);
    setProblem(refused);
    if (refused === undefined) setConfirming(true);
  };
  const promoting = rows?.filter((row) => chosen.has(row.name)) ?? [];
  const promote = async (note: string | undefined) => {
    try {
      const names = promoting.map((row) => row.name);
      const done = await api.promote(projectId, pair.from, pair.to, names, {
        // Held to what the table shows: a secret changed in `to` since is a conflict, and nothing is written.
        expectedVersions: Object.fromEntries(promoting.map((row) => [row.name, row.toVersion ?? 0])),
        ...(note !== undefined && { note }),
      });
      promoted.current = true;
      if (Array.isArray(done)) {
        setStatus(writtenText(done.length, pair));
        onChanged();
      } else {
        setStatus(<ProposedNotice request={done} changesHref={changesHref} />);
        onProposed();
      }
    } finally {
      comparison.reload();
    }
  };

  const shown = rows && differencesFirst(differencesOnly ? rows.filter((row) => row.status !== 'same') : rows);
  const badge = target.protected && (
    <>
      {' '}
      <span class="badge protected">Protected</span>
    </>
  );
  return (
    <>
      <List
        id="compare"
        title={
          <>
            {pair.from} compared with {pair.to}
            {badge}
          </>
        }
        rows={shown}
        error={comparison.error}
        empty={differencesOnly ? 'No differences.' : 'No secrets to compare.'}
        rowKey={(row) => row.name}
        tableClass="compare"
        columns={[
          { label: 'Name', cell: (row) => row.name },
          { label: 'Status', cell: (row) => statusWords(row.status, pair) },
          { label: `Version in ${pair.from}`, cell: (row) => versionText(row.fromVersion) },
          { label: `Version in ${pair.to}`, cell: (row) => versionText(row.toVersion) },
          ...(promotes
            ? [
                {
                  label: 'Promote',
                  cell: (row: SecretComparison) =>
                    isPromotable(row) && (
                      <input
                        type="checkbox"
                        aria-label={`Promote ${row.name}`}
                        checked={chosen.has(row.name)}
                        onChange={(event) => choose(row.name, event.currentTarget.checked)}
                      />
                    ),
                },
              ]
            : []),
        ]}
      >
        <p class="hint">
          Values are compared without being shown, so comparing is not a recorded read.{' '}
          {promotes
            ? `Promote copies the chosen secrets’ current values from ${pair.from} into ${pair.to}.`
            : `Your access to ${pair.to} is read: you can compare, not promote into it.`}
        </p>
        {rows && <p class="summary">{summaryText(rows, pair)}</p>}
        <div class="toolbar">
          <label class="check">
            <input
              type="checkbox"
              checked={differencesOnly}
              onChange={(event) => setDifferencesOnly(event.currentTarget.checked)}
            />
            Only differences
          </label>
          {promotes && (
            <div class="toolbar-actions">
              <span class="note" id="promote-chosen">
                {counted(chosen.size, 'secret')} chosen
              </span>
              <button
                type="button"
                aria-haspopup="dialog"
                aria-describedby={problem === undefined ? 'promote-chosen' : 'promote-chosen promote-problem'}
                onClick={openDialog}
              >
                Promote
              </button>
            </div>
          )}
        </div>
        <ErrorMessage id="promote-problem" error={problem} />
        <p class="status" role="status">
          {status}
        </p>
      </List>
      {confirming && (
        <PromoteDialog
          pair={pair}
          target={target}
          rows={promoting}
          onPromote={promote}
          onClose={() => {
            setConfirming(false);
            if (promoted.current) setChosen(new Set());
            promoted.current = false;
          }}
        />
      )}
    </>
  );
};

/** What a promote into a protected environment says: proposed, waiting for approval, and where to follow it. */
const ProposedNotice = ({ request, changesHref }: { request: ChangeRequest; changesHref: string }) => (
  <>
    Proposed as a change request in {request.environment}: nothing is written until it has{' '}
    {counted(request.approvalsNeeded, 'approval')}. <a href={changesHref}>See it in Changes</a>
  </>
);

/** A choice of one of the project's environments, by name. */
const EnvironmentSelect = ({
  id,
  label,
  environments,
  value,
  onChange,
}: {
  id: string;
  label: string;
  environments: readonly Environment[];
  value: string;
  onChange: (name: string) => void;
}) => (
  <div>
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
      {environments.map((environment) => (
        <option key={environment.name} value={environment.name}>
          {environment.name}
        </option>
      ))}
    </select>
  </div>
);

/**
 * A project's Compare tab: two of its environments chosen, From and To (staging and production when
 * both exist), and their comparison (see `Comparison`), unless the person has no access to one of them.
 */
export const ComparePanel = ({
  api,
  projectId,
  environments,
  error,
  manages,
  settingsHref,
  changesHref,
  onChoose,
  onChanged,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  error: string | undefined;
  manages: boolean;
  /** Where environments are added: the project's Settings. */
  settingsHref: string;
  /** Where proposed changes wait for approval: the project's Changes. */
  changesHref: string;
  /** Chooses the environment the Secrets and Changes tabs show. */
  onChoose: (name: string) => void;
  /** An environment's secrets changed: the counts are to be read again. */
  onChanged: () => void;
}) => {
  const [picked, setPicked] = useState<EnvironmentPair>();
  const named = (name: string | undefined) => environments?.find((environment) => environment.name === name);
  // A pair that names a deleted environment falls back to the default.
  const pair = picked && named(picked.from) && named(picked.to) ? picked : environments && defaultPair(environments);
  if (environments === undefined || pair === undefined) {
    return (
      <>
        <ErrorMessage id="environments-error" error={error} />
        {environments === undefined
          ? !error && <p>Loading…</p>
          : environments.length < 2 && (
              <p>
                Comparing needs two environments; this project has {environments.length === 0 ? 'none' : 'one'}.{' '}
                {manages && <a href={settingsHref}>Add one in Settings.</a>}
              </p>
            )}
      </>
    );
  }
  const from = named(pair.from);
  const to = named(pair.to);
  const unreadable = [from, to].find((environment) => environment?.access === 'none');
  return (
    <>
      <fieldset class="filters pair">
        <legend class="visually-hidden">Environments to compare</legend>
        <EnvironmentSelect
          id="compare-from"
          label="From"
          environments={environments}
          value={pair.from}
          onChange={(name) => setPicked({ ...pair, from: name })}
        />
        <EnvironmentSelect
          id="compare-to"
          label="To"
          environments={environments}
          value={pair.to}
          onChange={(name) => setPicked({ ...pair, to: name })}
        />
        <button type="button" class="secondary" onClick={() => setPicked({ from: pair.to, to: pair.from })}>
          Swap
        </button>
      </fieldset>
      {pair.from === pair.to ? (
        <p class="empty">Choose two different environments to compare.</p>
      ) : unreadable ? (
        <p class="empty">You have no access to {unreadable.name}: comparing needs read access to both environments.</p>
      ) : (
        to && (
          <Comparison
            key={`${pair.from}\n${pair.to}`}
            api={api}
            projectId={projectId}
            pair={pair}
            target={to}
            changesHref={changesHref}
            onChanged={onChanged}
            onProposed={() => onChoose(pair.to)}
          />
        )
      )}
    </>
  );
};
