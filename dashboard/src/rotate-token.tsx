import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from '@contract/limits';
import { useState } from 'preact/hooks';
import { Confirm } from './ui';

/** The grace periods offered, within the API's 0 to {@link MAX_GRACE_HOURS} hours; its default is chosen first. */
const GRACE_CHOICES = [0, 1, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS].map((hours) => {
  const span = hours > 24 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hour${hours === 1 ? '' : 's'}`;
  return {
    hours,
    label: hours === 0 ? 'No grace (stops now)' : hours === DEFAULT_GRACE_HOURS ? `${span} (default)` : span,
  };
});

/**
 * The question before a rotation, with the grace period the old token keeps working for: of a person's
 * token or a service account's, whose `rotate` call differs. `kept` says what the replacement keeps of
 * the old token (a person's keeps its scopes too).
 */
export const RotateToken = ({
  name,
  kept,
  rotate,
  onClose,
}: {
  /** The token's name. */
  name: string;
  /** What the new token keeps, e.g. `same name, scopes and addresses`. */
  kept: string;
  /** Rotates the token, the old one working on for `graceHours`; throws the API's refusal. */
  rotate: (graceHours: number) => Promise<void>;
  onClose: () => void;
}) => {
  const [graceHours, setGraceHours] = useState<number>(DEFAULT_GRACE_HOURS);
  return (
    <Confirm title={`Rotate “${name}”?`} action="Rotate" onClose={onClose} onConfirm={() => rotate(graceHours)}>
      <p>
        A new token with the {kept} replaces “{name}”. The old one keeps working for the grace period you choose (or
        until it expires, if sooner), so that what uses it can move to the new one.
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
