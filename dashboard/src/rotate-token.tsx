import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from '@contract/limits';
import { useState } from 'preact/hooks';
import { type Api, dataOf } from './api';
import type { RotatedToken, TokenEntry } from './token-types';
import { Confirm } from './ui';

/** The grace periods offered, within the API's 0 to {@link MAX_GRACE_HOURS} hours; its default is chosen first. */
const GRACE_CHOICES = [0, 1, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS].map((hours) => {
  const span = hours > 24 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hour${hours === 1 ? '' : 's'}`;
  return {
    hours,
    label: hours === 0 ? 'No grace (stops now)' : hours === DEFAULT_GRACE_HOURS ? `${span} (default)` : span,
  };
});

/** The question before a rotation, with the grace period the old token keeps working for. */
export const RotateToken = ({
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
        onRotated(
          await dataOf(
            api.api.POST('/api/v1/tokens/{id}/rotate', { params: { path: { id: token.id } }, body: { graceHours } }),
          ),
        );
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
