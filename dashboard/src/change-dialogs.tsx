import { useRef, useState } from 'preact/hooks';
import { fieldText } from './field-error';
import { List } from './list';
import { RevealedValue } from './revealed-value';
import { ErrorMessage, Modal, useAction } from './ui';

/**
 * The values a change request proposes, as `GET …/values` answered them (a read the project's activity
 * records, which the dialog says), each shown as a revealed secret is, with Copy.
 */
export const ProposedValues = ({ values, onClose }: { values: Record<string, string>; onClose: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <Modal labelledBy="values-title" wide onClose={onClose} dialogRef={dialog}>
      <List
        id="values"
        title="Proposed values"
        rows={Object.entries(values)}
        empty="It sets no value: it deletes or restores only."
        rowKey={([name]) => name}
        tableClass="secrets"
        columns={[
          { label: 'Name', cell: ([name]) => name },
          {
            label: 'Value',
            className: 'value',
            cell: ([name, value]) => <RevealedValue id={`proposed-${name}`} value={value} />,
          },
        ]}
      >
        <p class="hint">This read is recorded in the project’s activity.</p>
      </List>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </Modal>
  );
};

/**
 * The owner's break glass: applies an open request without its approvals, asking for the reason the
 * project's activity records with it; the API's words beside the reason when it refuses it.
 */
export const ApplyWithoutApproval = ({
  onApply,
  onClose,
}: {
  onApply: (reason: string) => Promise<void>;
  onClose: () => void;
}) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const { busy, formError, detailsAt, run } = useAction(['reason']);
  const reasonError = fieldText(detailsAt('reason'));
  const submit = (event: Event) => {
    event.preventDefault();
    void run(() => onApply(reason));
  };
  return (
    <Modal labelledBy="apply-title" onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="apply-title">
        <h2 id="apply-title">Apply without approval?</h2>
        <p id="apply-hint" class="hint">
          The change is written now, without its approvals. The project’s activity records it with your reason.
        </p>
        <label for="apply-reason">Reason</label>
        <textarea
          id="apply-reason"
          rows={2}
          aria-required="true"
          aria-invalid={reasonError !== undefined}
          aria-describedby={reasonError === undefined ? 'apply-hint' : 'apply-hint apply-reason-error'}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
        <ErrorMessage id="apply-reason-error" error={reasonError} />
        <ErrorMessage id="apply-error" error={formError} />
        <div class="actions">
          <button type="submit" class="danger" disabled={busy}>
            Apply without approval
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};
