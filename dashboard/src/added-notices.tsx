import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { LeaveProjectConfirm } from './leave-project';
import type { Me } from './me';
import { projectHref } from './projects';
import { When } from './ui';

/** A project someone else added the person to, which the person has not opened yet. */
type Addition = Me['addedTo'][number];

/** Who added the person: their e-mail, or their user id where the API knows no e-mail. */
export const adderWords = (addedBy: Addition['addedBy']): string => addedBy.email ?? `user ${addedBy.userId}`;

/**
 * On every screen, the projects someone else added the person to that the person has not opened
 * (`GET /me`'s `addedTo`): by whom and when, a link that opens each (which is what makes its notice
 * go), and Leave. A membership nobody asked for lets that someone's project reach the person's
 * scripts; this is where the person learns of it. `hidden`: the projects opened or left since the page
 * loaded, and the one open now. Nothing while `GET /me` loads or when it failed: the screen's own calls
 * say why.
 */
export const AddedNotices = ({
  api,
  addedTo,
  hidden,
  onLeft,
}: {
  api: Api;
  addedTo: readonly Addition[] | undefined;
  hidden: ReadonlySet<string>;
  onLeft: (projectId: string) => void;
}) => {
  const [leaving, setLeaving] = useState<Addition>();
  const [left, setLeft] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Once the dialog is gone, the focus goes where its Leave button was: this section's heading.
  useEffect(() => {
    if (left !== undefined && leaving === undefined) heading.current?.focus();
  }, [left, leaving]);
  const shown = (addedTo ?? []).filter((addition) => !hidden.has(addition.projectId));
  if (shown.length === 0 && left === undefined) return null;
  return (
    <section class="panel notices" aria-labelledby="added-notices-title">
      <h2 id="added-notices-title" ref={heading} tabIndex={-1}>
        Projects you were added to
      </h2>
      <p class="hint">
        A project you did not expect can receive what your scripts write: open it to check it, or leave it.
      </p>
      {left !== undefined && (
        <p class="status" role="status">
          You left “{left}”.
        </p>
      )}
      <ul>
        {shown.map((addition) => (
          <li key={addition.projectId}>
            <span id={`added-${addition.projectId}`}>
              Added to <a href={projectHref(addition.projectId)}>{addition.name}</a> by {adderWords(addition.addedBy)}{' '}
              as {addition.role}, <When at={addition.addedAt} otherwise="" />
            </span>
            <button
              type="button"
              class="danger"
              aria-label={`Leave ${addition.name}`}
              onClick={() => setLeaving(addition)}
            >
              Leave
            </button>
          </li>
        ))}
      </ul>
      {leaving && (
        <LeaveProjectConfirm
          api={api}
          projectId={leaving.projectId}
          name={leaving.name}
          onClose={() => setLeaving(undefined)}
          onLeft={() => {
            setLeft(leaving.name);
            onLeft(leaving.projectId);
          }}
        />
      )}
    </section>
  );
};
