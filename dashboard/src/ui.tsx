import type { ValidationDetail } from '@contract/errors';
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, SecretsNetworkError } from './api';

/** Whether a validation detail's path is within a body field, e.g. `allowedIps.2` within `allowedIps`. */
const isWithin = (path: string, field: string): boolean => path === field || path.startsWith(`${field}.`);

/** One validation detail in the API's words: where, then what. */
export const detailText = (detail: ValidationDetail): string =>
  detail.path ? `${detail.path}: ${detail.message}` : detail.message;

/**
 * The words to show for a failure: the API's own text with the fields a validation failure names (but
 * those within `fieldsApart`, which the form shows next to their own controls), or the error's message.
 */
export const errorText = (error: unknown, fieldsApart: readonly string[] = []): string => {
  if (error instanceof SecretsNetworkError)
    return 'The service cannot be reached. Check your connection and try again.';
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const rest = (error.details ?? []).filter((detail) => !fieldsApart.some((field) => isWithin(detail.path, field)));
  return rest.length ? `${error.message}: ${rest.map(detailText).join('; ')}` : error.message;
};

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
 * API's words when it failed (shown next to the control), but for the validation details of
 * `fieldsApart`, which `detailsAt` hands to the form to show next to their fields. `run` clears the
 * last error first.
 */
export const useAction = (
  fieldsApart: readonly string[] = [],
): {
  busy: boolean;
  error: string | undefined;
  /**
   * The error for the form's own line: as `error`, but nothing when the API's words are all shown
   * beside their fields already (a bad name is not also "Validation failed" under another field).
   */
  formError: string | undefined;
  /** The failed answer's status and the API's own error text, to tell one failure from another. */
  failure: { status: number; error: string } | undefined;
  detailsAt: (field: string) => readonly ValidationDetail[];
  run: (action: () => Promise<void>) => Promise<boolean>;
} => {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  const run = async (action: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
      return true;
    } catch (error) {
      setFailure({ error });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const detailsAt = (field: string) =>
    failure?.error instanceof ApiError
      ? (failure.error.details ?? []).filter((detail) => isWithin(detail.path, field))
      : [];
  const answered = failure?.error instanceof ApiError ? failure.error : undefined;
  const error = failure && errorText(failure.error, fieldsApart);
  const placed =
    answered?.details !== undefined &&
    answered.details.length > 0 &&
    answered.details.every((detail) => fieldsApart.some((field) => isWithin(detail.path, field)));
  return {
    busy,
    error,
    formError: placed ? undefined : error,
    failure: answered && { status: answered.status, error: answered.message },
    detailsAt,
    run,
  };
};

/**
 * A modal dialog, open while it is in the page, labelled by the heading `labelledBy` names among its
 * children; closing it (Escape, or a control that calls `close` on it) calls `onClose`. The browser
 * moves the focus into it as it opens and keeps it there.
 */
export const Modal = ({
  labelledBy,
  wide = false,
  onClose,
  dialogRef,
  children,
}: {
  labelledBy: string;
  /** For a table or a long form, rather than a question. */
  wide?: boolean;
  onClose: () => void;
  dialogRef?: RefObject<HTMLDialogElement | null>;
  children: ComponentChildren;
}) => {
  const own = useRef<HTMLDialogElement>(null);
  const dialog = dialogRef ?? own;
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class={wide ? 'wide' : undefined} aria-labelledby={labelledBy} onClose={onClose}>
      {children}
    </dialog>
  );
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
  const confirm = async () => {
    if (await run(onConfirm)) onClose();
  };
  return (
    <Modal labelledBy="confirm-title" onClose={onClose} dialogRef={dialog}>
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
    </Modal>
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

/**
 * Controls that save as soon as they change (a level in a table's row): the value chosen shows at once
 * while it is saved; when the API refuses it, the saved value comes back and the API's words stand
 * beside the control. Keys name the controls; `status` says what the last save did.
 */
export const useSaveOnChange = (): {
  /** What a control shows: the value chosen here, or else the saved one. */
  shown: (key: string, saved: string) => string;
  /** The API's words about the control's last save, while it was refused. */
  errorOf: (key: string) => string | undefined;
  status: string;
  /** Saves `value` through `write`, which answers the sentence that says what it did. */
  save: (key: string, value: string, write: () => Promise<string>) => Promise<void>;
} => {
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [status, setStatus] = useState('');
  const put = <T,>(map: ReadonlyMap<string, T>, key: string, value: T | undefined): ReadonlyMap<string, T> => {
    const next = new Map(map);
    if (value === undefined) next.delete(key);
    else next.set(key, value);
    return next;
  };
  const save = async (key: string, value: string, write: () => Promise<string>) => {
    setChosen((previous) => put(previous, key, value));
    setErrors((previous) => put(previous, key, undefined));
    setStatus('');
    try {
      setStatus(await write());
    } catch (failure) {
      setChosen((previous) => put(previous, key, undefined));
      setErrors((previous) => put(previous, key, errorText(failure)));
    }
  };
  return { shown: (key, saved) => chosen.get(key) ?? saved, errorOf: (key) => errors.get(key), status, save };
};
