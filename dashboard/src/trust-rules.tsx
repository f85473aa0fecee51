import {
  GITHUB_ACTIONS_ISSUER,
  MAX_AWS_PRINCIPALS,
  MAX_RULE_CLAIMS,
  type StoredTrustRule,
  type TrustRuleBody,
} from '@contract/trust-rules';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type Api, bodyOf } from './api';
import { AddressErrors, type AddressLine, addressLines } from './create-token-form';
import { describedBy, fieldText } from './field-error';
import { List } from './list';
import type { ServiceAccount } from './service-account-types';
import { Confirm, detailText, ErrorMessage, useAction, useDraft, useLoad, When } from './ui';

/**
 * The audience a new OpenID Connect rule is offered with: the one the `secrets` CLI asks a job's token
 * for unless `SECRETS_OIDC_AUDIENCE` names another (docs/pipelines.md), and the local runtime's
 * development workload issuer's.
 */
export const DEFAULT_AUDIENCE = 'secrets-service';

/** GitHub Actions' subject of a job of `owner/repo` on a branch, or in a deployment environment. */
export const githubSubject = (owner: string, repository: string, on: 'branch' | 'environment', name: string) =>
  on === 'branch'
    ? `repo:${owner}/${repository}:ref:refs/heads/${name}`
    : `repo:${owner}/${repository}:environment:${name}`;

/** The claims as typed, one `name=value` a line, as the API takes them; none typed: left out. */
const claimsOf = (text: string): Record<string, string> | undefined => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return undefined;
  return Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    }),
  );
};

/** What a rule trusts, in words: its subject at its issuer, or its principals. */
const trustedText = (rule: StoredTrustRule): ComponentChildren =>
  rule.kind === 'aws' ? (
    rule.principals.map((principal, index) => (
      <span key={principal}>
        {index > 0 && <br />}
        <code>{principal}</code>
      </span>
    ))
  ) : (
    <>
      <code>{rule.subject}</code> <span class="note">at {rule.issuer}</span>
    </>
  );

const kindText = (rule: StoredTrustRule): string =>
  rule.kind === 'aws' ? 'AWS IAM' : rule.issuer === GITHUB_ACTIONS_ISSUER ? 'GitHub Actions' : 'OpenID Connect';

/** Sends a rule: the answer, or the API's refusal thrown for the form to show. */
type AddRule = (rule: TrustRuleBody) => Promise<void>;

/** One form of a trust rule, its heading, fields and button; `fields` renders with the refusals by field. */
const RuleForm = ({
  id,
  title,
  hint,
  button,
  fieldsApart,
  toRule,
  add,
  children,
}: {
  id: string;
  title: string;
  hint: string;
  button: string;
  fieldsApart: readonly string[];
  /** The rule as typed. */
  toRule: () => TrustRuleBody;
  add: AddRule;
  children: (detailsAt: ReturnType<typeof useAction>['detailsAt']) => ComponentChildren;
}) => {
  const { busy, formError, detailsAt, run } = useAction(fieldsApart);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(() => add(toRule()));
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby={`${id}-title`} aria-describedby={`${id}-error`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p class="hint">{hint}</p>
      {children(detailsAt)}
      <ErrorMessage id={`${id}-error`} error={formError} />
      <button type="submit" disabled={busy}>
        {button}
      </button>
    </form>
  );
};

/** A labelled text field of a rule's form, with its hint and the API's words about it. */
const TextField = ({
  id,
  label,
  hint,
  value,
  error,
  required = true,
  onInput,
}: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  value: string;
  error: string | undefined;
  required?: boolean;
  onInput: (value: string) => void;
}) => (
  <div>
    <label for={id}>{label}</label>
    {hint !== undefined && (
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    )}
    <input
      id={id}
      required={required}
      autocomplete="off"
      spellcheck={false}
      value={value}
      aria-invalid={error !== undefined}
      aria-describedby={describedBy(hint !== undefined && `${id}-hint`, error !== undefined && `${id}-error`)}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
    <ErrorMessage id={`${id}-error`} error={error} />
  </div>
);

interface GitHubDraft {
  readonly owner: string;
  readonly repository: string;
  readonly on: 'branch' | 'environment';
  readonly branch: string;
  readonly environment: string;
  readonly audience: string;
}

const GitHubActionsForm = ({ draftKey, add }: { draftKey: string; add: AddRule }) => {
  const [draft, setDraft, clearDraft] = useDraft<GitHubDraft>(`trust-github:${draftKey}`, {
    owner: '',
    repository: '',
    on: 'branch',
    branch: 'main',
    environment: 'production',
    audience: DEFAULT_AUDIENCE,
  });
  const subject = githubSubject(
    draft.owner || 'OWNER',
    draft.repository || 'REPO',
    draft.on,
    (draft.on === 'branch' ? draft.branch : draft.environment) || (draft.on === 'branch' ? 'BRANCH' : 'ENV'),
  );
  return (
    <RuleForm
      id="trust-github"
      title="GitHub Actions"
      hint="Trusts the jobs of one repository on one branch, or in one deployment environment: they exchange their OpenID Connect token for this service account’s access, with no stored secret."
      button="Add GitHub Actions rule"
      fieldsApart={['audience', 'subject']}
      toRule={() => ({
        kind: 'oidc',
        issuer: GITHUB_ACTIONS_ISSUER,
        audience: draft.audience,
        subject: githubSubject(
          draft.owner.trim(),
          draft.repository.trim(),
          draft.on,
          (draft.on === 'branch' ? draft.branch : draft.environment).trim(),
        ),
      })}
      add={async (rule) => {
        await add(rule);
        clearDraft();
      }}
    >
      {(detailsAt) => (
        <>
          <div class="fields">
            <TextField
              id="github-owner"
              label="Owner"
              value={draft.owner}
              error={undefined}
              onInput={(owner) => setDraft({ ...draft, owner })}
            />
            <TextField
              id="github-repository"
              label="Repository"
              value={draft.repository}
              error={undefined}
              onInput={(repository) => setDraft({ ...draft, repository })}
            />
          </div>
          <fieldset>
            <legend>Jobs that run</legend>
            <label class="check">
              <input
                type="radio"
                name="github-on"
                checked={draft.on === 'branch'}
                onChange={() => setDraft({ ...draft, on: 'branch' })}
              />
              On a branch
            </label>
            <label class="check">
              <input
                type="radio"
                name="github-on"
                checked={draft.on === 'environment'}
                onChange={() => setDraft({ ...draft, on: 'environment' })}
              />
              In a deployment environment
            </label>
          </fieldset>
          <div class="fields">
            {draft.on === 'branch' ? (
              <TextField
                id="github-branch"
                label="Branch"
                value={draft.branch}
                error={undefined}
                onInput={(branch) => setDraft({ ...draft, branch })}
              />
            ) : (
              <TextField
                id="github-environment"
                label="Environment"
                value={draft.environment}
                error={undefined}
                onInput={(environment) => setDraft({ ...draft, environment })}
              />
            )}
            <TextField
              id="github-audience"
              label="Audience"
              hint={
                <>
                  What the job’s token is asked for: <code>{DEFAULT_AUDIENCE}</code> by the <code>secrets</code> CLI,
                  unless <code>SECRETS_OIDC_AUDIENCE</code> names another.
                </>
              }
              value={draft.audience}
              error={fieldText(detailsAt('audience'))}
              onInput={(audience) => setDraft({ ...draft, audience })}
            />
          </div>
          <p id="github-subject" class="hint">
            Subject: <code>{subject}</code>
          </p>
          <ErrorMessage id="github-subject-error" error={fieldText(detailsAt('subject'))} />
        </>
      )}
    </RuleForm>
  );
};

interface OidcDraft {
  readonly issuer: string;
  readonly audience: string;
  readonly subject: string;
  /** One `name=value` a line. */
  readonly claims: string;
}

const OidcForm = ({ draftKey, add }: { draftKey: string; add: AddRule }) => {
  const [draft, setDraft, clearDraft] = useDraft<OidcDraft>(`trust-oidc:${draftKey}`, {
    issuer: '',
    audience: DEFAULT_AUDIENCE,
    subject: '',
    claims: '',
  });
  return (
    <RuleForm
      id="trust-oidc"
      title="Another OpenID Connect issuer"
      hint="Trusts the workloads whose ID token this issuer signs for this audience, with this subject (a * matches within one :-separated part) and these claims."
      button="Add OIDC rule"
      fieldsApart={['issuer', 'audience', 'subject', 'claims']}
      toRule={() => {
        const claims = claimsOf(draft.claims);
        return {
          kind: 'oidc',
          issuer: draft.issuer.trim(),
          audience: draft.audience,
          subject: draft.subject,
          ...(claims && { claims }),
        };
      }}
      add={async (rule) => {
        await add(rule);
        clearDraft();
      }}
    >
      {(detailsAt) => {
        const claimErrors = detailsAt('claims');
        return (
          <>
            <TextField
              id="oidc-issuer"
              label="Issuer"
              hint="An https URL, such as https://gitlab.com; its tokens’ iss must equal it exactly."
              value={draft.issuer}
              error={fieldText(detailsAt('issuer'))}
              onInput={(issuer) => setDraft({ ...draft, issuer })}
            />
            <div class="fields">
              <TextField
                id="oidc-audience"
                label="Audience"
                value={draft.audience}
                error={fieldText(detailsAt('audience'))}
                onInput={(audience) => setDraft({ ...draft, audience })}
              />
              <TextField
                id="oidc-subject"
                label="Subject"
                value={draft.subject}
                error={fieldText(detailsAt('subject'))}
                onInput={(subject) => setDraft({ ...draft, subject })}
              />
            </div>
            <label for="oidc-claims">Claims (optional)</label>
            <p id="oidc-claims-hint" class="hint">
              One name=value a line, up to {MAX_RULE_CLAIMS}, each the token must carry as that text, such as
              environment=production.
            </p>
            <textarea
              id="oidc-claims"
              rows={2}
              spellcheck={false}
              value={draft.claims}
              aria-invalid={claimErrors.length > 0}
              aria-describedby={describedBy('oidc-claims-hint', claimErrors.length > 0 && 'oidc-claims-error')}
              onInput={(event) => setDraft({ ...draft, claims: event.currentTarget.value })}
            />
            <ErrorMessage
              id="oidc-claims-error"
              error={claimErrors.length > 0 ? claimErrors.map(detailText).join('; ') : undefined}
            />
          </>
        );
      }}
    </RuleForm>
  );
};

const AwsRoleForm = ({ draftKey, add }: { draftKey: string; add: AddRule }) => {
  const [principals, setPrincipals, clearPrincipals] = useDraft(`trust-aws:${draftKey}`, '');
  // The lines as last sent, so that an error about `principals.<i>` can quote its line.
  const [sent, setSent] = useState<readonly AddressLine[]>([]);
  return (
    <RuleForm
      id="trust-aws"
      title="AWS role"
      hint="Trusts what runs as these IAM roles (any of their sessions) or users, proved by a signed sts:GetCallerIdentity request."
      button="Add AWS role rule"
      fieldsApart={['principals']}
      toRule={() => {
        const lines = addressLines(principals);
        setSent(lines);
        return { kind: 'aws', principals: lines.map(({ entry }) => entry) };
      }}
      add={async (rule) => {
        await add(rule);
        clearPrincipals();
      }}
    >
      {(detailsAt) => {
        const errors = detailsAt('principals');
        const whole = errors.filter((detail) => detail.path === 'principals');
        const byLine = errors.filter((detail) => detail.path !== 'principals');
        return (
          <>
            <label for="aws-principals">Role ARNs</label>
            <p id="aws-principals-hint" class="hint">
              One a line, up to {MAX_AWS_PRINCIPALS}: arn:aws:iam::123456789012:role/deploy, or a user’s ARN.
            </p>
            <textarea
              id="aws-principals"
              rows={3}
              required
              spellcheck={false}
              value={principals}
              aria-invalid={errors.length > 0}
              aria-describedby={describedBy(
                'aws-principals-hint',
                whole.length > 0 && 'aws-principals-error',
                byLine.length > 0 && 'aws-principals-lines-error',
              )}
              onInput={(event) => setPrincipals(event.currentTarget.value)}
            />
            <ErrorMessage id="aws-principals-error" error={fieldText(whole)} />
            <AddressErrors id="aws-principals-lines-error" details={byLine} sent={sent} />
          </>
        );
      }}
    </RuleForm>
  );
};

/**
 * A service account's trust rules, for its project's owners and admins: whom the service lets exchange
 * a credential of their own (a CI job's OpenID Connect token, an AWS role) for the service account's
 * access. Listed with Delete rule; added through a GitHub Actions form, a generic OpenID Connect one,
 * and an AWS role one, each refusal beside its field.
 */
export const TrustRules = ({
  api,
  projectId,
  serviceAccount,
}: {
  api: Api;
  projectId: string;
  serviceAccount: ServiceAccount;
}) => {
  const path = { projectId, serviceAccountId: serviceAccount.id };
  const rules = useLoad(() =>
    bodyOf(
      api.api.GET('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules', {
        params: { path },
      }),
    ),
  );
  const [deleting, setDeleting] = useState<StoredTrustRule>();
  const [status, setStatus] = useState('');
  const add: AddRule = async (rule) => {
    setStatus('');
    await bodyOf(
      api.api.POST('/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules', {
        params: { path },
        body: rule,
      }),
    );
    setStatus(rule.kind === 'aws' ? 'Added the AWS rule.' : `Added the rule for ${rule.subject}.`);
    rules.reload();
  };
  return (
    <div class="trust-rules">
      <List
        id="trust-rules"
        title={`Trust rules of “${serviceAccount.name}”`}
        rows={rules.data?.data}
        error={rules.error}
        empty="No trust rules yet: only its tokens act as it."
        rowKey={(rule) => rule.id}
        columns={[
          { label: 'Kind', cell: kindText },
          { label: 'Trusts', cell: trustedText, className: 'addresses' },
          { label: 'Audience', cell: (rule) => (rule.kind === 'oidc' ? rule.audience : '') },
          {
            label: 'Claims',
            cell: (rule) =>
              rule.kind === 'oidc' && rule.claims
                ? Object.entries(rule.claims)
                    .map(([name, value]) => `${name}=${value}`)
                    .join(', ')
                : '',
          },
          { label: 'Created', cell: (rule) => <When at={rule.createdAt} otherwise="" /> },
        ]}
        actions={(rule) => (
          <button type="button" class="danger" onClick={() => setDeleting(rule)}>
            Delete rule
          </button>
        )}
      >
        <p class="hint">
          Workloads a rule trusts exchange a credential of their own for this service account’s access, with no stored
          token.
        </p>
        <p class="status" role="status">
          {status}
        </p>
      </List>
      <GitHubActionsForm draftKey={serviceAccount.id} add={add} />
      <OidcForm draftKey={serviceAccount.id} add={add} />
      <AwsRoleForm draftKey={serviceAccount.id} add={add} />
      {deleting && (
        <Confirm
          title={`Delete the ${kindText(deleting)} rule?`}
          action="Delete rule"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api.api.DELETE(
              '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules/{ruleId}',
              { params: { path: { ...path, ruleId: deleting.id } } },
            );
            setStatus(`Deleted the ${kindText(deleting)} rule.`);
            rules.reload();
          }}
        >
          <p>What it trusts can no longer exchange a credential of its own for “{serviceAccount.name}”’s access.</p>
        </Confirm>
      )}
    </div>
  );
};
