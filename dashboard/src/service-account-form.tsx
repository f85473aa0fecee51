import type { Environment } from '@client/index';
import { MAX_DESCRIPTION_LENGTH } from '@contract/limits';
import { type AccessLevel, accessLevels } from '@contract/roles';
import { useRef } from 'preact/hooks';
import { type Api, dataOf } from './api';
import { describedBy, fieldText } from './field-error';
import { accessBody, levelsOf, type ServiceAccount } from './service-account-types';
import { detailText, ErrorMessage, Modal, useAction, useDraft } from './ui';

/** A service account as its form holds it: name, description, and a level per environment of the project. */
export interface ServiceAccountDraft {
  readonly name: string;
  readonly description: string;
  readonly levels: Readonly<Record<string, AccessLevel>>;
}

/** The body fields the form shows beside their own controls. */
const FIELDS = ['name', 'description', 'access'] as const;

/**
 * The fields of a service account: name, description (optional) and a level per environment (none,
 * read, write), each refusal of the API beside its field; `idPrefix` keeps the ids of the create form
 * and the edit dialog apart.
 */
const ServiceAccountFields = ({
  idPrefix,
  draft,
  environments,
  detailsAt,
  onChange,
}: {
  idPrefix: string;
  draft: ServiceAccountDraft;
  environments: readonly Environment[] | undefined;
  detailsAt: ReturnType<typeof useAction>['detailsAt'];
  onChange: (draft: ServiceAccountDraft) => void;
}) => {
  const nameError = fieldText(detailsAt('name'));
  const descriptionError = fieldText(detailsAt('description'));
  const accessErrors = detailsAt('access');
  const accessErrorId = `${idPrefix}-access-error`;
  return (
    <>
      <div class="fields">
        <div>
          <label for={`${idPrefix}-name`}>Name</label>
          <input
            id={`${idPrefix}-name`}
            required
            maxLength={100}
            autocomplete="off"
            spellcheck={false}
            value={draft.name}
            aria-invalid={nameError !== undefined}
            aria-describedby={describedBy(`${idPrefix}-name-hint`, nameError !== undefined && `${idPrefix}-name-error`)}
            onInput={(event) => onChange({ ...draft, name: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for={`${idPrefix}-description`}>Description (optional)</label>
          <input
            id={`${idPrefix}-description`}
            maxLength={MAX_DESCRIPTION_LENGTH}
            autocomplete="off"
            value={draft.description}
            aria-invalid={descriptionError !== undefined}
            aria-describedby={describedBy(descriptionError !== undefined && `${idPrefix}-description-error`)}
            onInput={(event) => onChange({ ...draft, description: event.currentTarget.value })}
          />
        </div>
      </div>
      <p id={`${idPrefix}-name-hint`} class="hint">
        What the machine is, such as ci-deploy; the description says more, for people.
      </p>
      <ErrorMessage id={`${idPrefix}-name-error`} error={nameError} />
      <ErrorMessage id={`${idPrefix}-description-error`} error={descriptionError} />
      <fieldset aria-describedby={describedBy(`${idPrefix}-access-hint`, accessErrors.length > 0 && accessErrorId)}>
        <legend>Access per environment</legend>
        <p id={`${idPrefix}-access-hint`} class="hint">
          None, read (its tokens read the secrets) or write (they change them too). Its tokens reach no other
          environment, whatever the environment’s default for members.
        </p>
        {environments === undefined ? (
          <p>Loading…</p>
        ) : environments.length === 0 ? (
          <p>This project has no environment yet.</p>
        ) : (
          <div class="fields">
            {environments.map((environment) => {
              const id = `${idPrefix}-access-${environment.name}`;
              return (
                <div key={environment.name}>
                  <label for={id}>
                    <span class="visually-hidden">Access to </span>
                    {environment.name}
                  </label>
                  <select
                    id={id}
                    class="level"
                    value={draft.levels[environment.name] ?? 'none'}
                    aria-invalid={accessErrors.length > 0}
                    onChange={(event) =>
                      onChange({
                        ...draft,
                        levels: { ...draft.levels, [environment.name]: event.currentTarget.value as AccessLevel },
                      })
                    }
                  >
                    {accessLevels.map((level) => (
                      <option key={level} value={level}>
                        {level}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
          </div>
        )}
        <ErrorMessage
          id={accessErrorId}
          error={accessErrors.length > 0 ? accessErrors.map(detailText).join('; ') : undefined}
        />
      </fieldset>
    </>
  );
};

const EMPTY: ServiceAccountDraft = { name: '', description: '', levels: {} };

/** The create form of owners and admins: the service account is listed once made, and `onCreated` says which. */
export const CreateServiceAccountForm = ({
  api,
  projectId,
  environments,
  onCreated,
}: {
  api: Api;
  projectId: string;
  environments: readonly Environment[] | undefined;
  onCreated: (created: ServiceAccount) => void;
}) => {
  const [draft, setDraft, clearDraft] = useDraft<ServiceAccountDraft>(`service-account:${projectId}`, EMPTY);
  const { busy, formError, detailsAt, run } = useAction(FIELDS);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const description = draft.description.trim();
      const created = await dataOf(
        api.api.POST('/api/v1/projects/{projectId}/service-accounts', {
          params: { path: { projectId } },
          body: { name: draft.name, ...(description && { description }), access: accessBody(draft.levels) },
        }),
      );
      clearDraft();
      onCreated(created);
    });
  };
  return (
    <form
      class="panel"
      onSubmit={submit}
      aria-labelledby="create-service-account-title"
      aria-describedby="create-service-account-error"
    >
      <h2 id="create-service-account-title">Create a service account</h2>
      <p class="hint">
        A machine identity of this project, such as a CI pipeline: it belongs to the project, not to you, and acts
        through tokens of its own.
      </p>
      <ServiceAccountFields
        idPrefix="new-service-account"
        draft={draft}
        environments={environments}
        detailsAt={detailsAt}
        onChange={setDraft}
      />
      <ErrorMessage id="create-service-account-error" error={formError} />
      <button type="submit" disabled={busy}>
        Create service account
      </button>
    </form>
  );
};

/** Changes a service account's name, description and access, in a dialog; `onSaved` with it as changed. */
export const EditServiceAccount = ({
  api,
  projectId,
  serviceAccount,
  environments,
  onSaved,
  onClose,
}: {
  api: Api;
  projectId: string;
  serviceAccount: ServiceAccount;
  environments: readonly Environment[];
  onSaved: (changed: ServiceAccount) => void;
  onClose: () => void;
}) => {
  const [draft, setDraft, clearDraft] = useDraft<ServiceAccountDraft>(`service-account-edit:${serviceAccount.id}`, {
    name: serviceAccount.name,
    description: serviceAccount.description ?? '',
    levels: levelsOf(serviceAccount, environments),
  });
  const { busy, formError, detailsAt, run } = useAction(FIELDS);
  const dialog = useRef<HTMLDialogElement>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const description = draft.description.trim();
      const changed = await dataOf(
        api.api.PATCH('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}', {
          params: { path: { projectId, serviceAccountId: serviceAccount.id } },
          body: { name: draft.name, description: description || null, access: accessBody(draft.levels) },
        }),
      );
      clearDraft();
      onSaved(changed);
      dialog.current?.close();
    });
  };
  const cancel = () => {
    clearDraft();
    dialog.current?.close();
  };
  return (
    <Modal labelledBy="edit-service-account-title" wide onClose={onClose} dialogRef={dialog}>
      <form onSubmit={submit} aria-labelledby="edit-service-account-title">
        <h2 id="edit-service-account-title">Edit “{serviceAccount.name}”</h2>
        <p class="hint">Its access replaces what it held, from its tokens’ next request.</p>
        <ServiceAccountFields
          idPrefix="edit-service-account"
          draft={draft}
          environments={environments}
          detailsAt={detailsAt}
          onChange={setDraft}
        />
        <ErrorMessage id="edit-service-account-error" error={formError} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Save
          </button>
          <button type="button" class="secondary" onClick={cancel}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
};
