import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** The words to show for a failure: the API's own text, or the error's message. */
export const errorText = (error: unknown): string =>
  error instanceof ApiError || error instanceof Error ? error.message : String(error);

/** An error next to the control it belongs to, announced to screen readers as it appears. */
export const ErrorMessage = ({ id, error }: { id: string; error: string | undefined }) =>
  error ? (
    <p id={id} class="error" role="alert">
      {error}
    </p>
  ) : null;

/**
 * Form state kept in the tab's storage until the form succeeds, so what a person typed survives
 * a sign-in that an expired session forced on them.
 */
export const useDraft = <T,>(key: string, initial: T): [T, (value: T) => void, () => void] => {
  const storageKey = `draft:${key}`;
  const [value, setValue] = useState<T>(() => {
    const stored = sessionStorage.getItem(storageKey);
    return stored === null ? initial : (JSON.parse(stored) as T);
  });
  const update = (next: T) => {
    sessionStorage.setItem(storageKey, JSON.stringify(next));
    setValue(next);
  };
  const clear = () => {
    sessionStorage.removeItem(storageKey);
    setValue(initial);
  };
  return [value, update, clear];
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp in the reader's locale, in a `<time>` element that keeps the exact value. */
export const When = ({ at, otherwise }: { at: string | null; otherwise: string }) =>
  at === null ? <span>{otherwise}</span> : <time dateTime={at}>{dateFormat.format(new Date(at))}</time>;

/**
 * A call to the API that a control starts: whether it is under way (to disable the control), and the
 * API's words when it failed (shown next to the control). `run` clears the last error first.
 */
export const useAction = (): {
  busy: boolean;
  error: string | undefined;
  run: (action: () => Promise<void>) => Promise<boolean>;
} => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(errorText(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
};

/** A modal question with the action's own name on its confirm button, and Cancel. */
export const Confirm = ({
  title,
  children,
  action,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ComponentChildren;
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const confirm = async () => {
    if (await run(onConfirm)) onClose();
  };
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onClose}>
      <h2 id="confirm-title">{title}</h2>
      <div>{children}</div>
      <ErrorMessage id="confirm-error" error={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={confirm}>
          {action}
        </button>
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
};

/** Loads data on mount and on demand; `error` holds the API's words when it fails. */
export const useLoad = <T,>(load: () => Promise<T>): { data: T | undefined; error?: string; reload: () => void } => {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [generation, setGeneration] = useState(0);
  // Reloads when asked, not each time `load` is re-created.
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (error) => current && setState((previous) => ({ ...previous, error: errorText(error) })),
    );
    return () => {
      current = false;
    };
  }, [generation]);
  return { data: state.data, error: state.error, reload: () => setGeneration((value) => value + 1) };
};
