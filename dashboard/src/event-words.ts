import type { AuditEvent, DenialReason, SignInRefusal } from '@contract/audit';

/**
 * An audit event in words for the Activity screens: what happened (which secrets and versions, which
 * environment, which token, which member), by whom, with names rather than ids wherever the reader may
 * know them. Pure: the screens give the names they loaded and their own way of writing a time.
 */

/** Names the reader may see, by id; an id missing here is shown as it is. */
export interface KnownNames {
  /** The reader's projects' names, by project id. */
  readonly projects: ReadonlyMap<string, string>;
  /** Token names, by token id: the reader's own tokens, and those the events on screen name. */
  readonly tokens: ReadonlyMap<string, string>;
  /**
   * Service account names, by id: those of the trail's project, and those the events on screen name.
   * A token's event of a service account names the token in `details.name`, not the service account.
   */
  readonly serviceAccounts?: ReadonlyMap<string, string>;
}

/** How an event is read: the names known, the project whose trail it is (if any), and a time in the reader's words. */
export interface Reading {
  readonly names: KnownNames;
  /** The trail's project: its events need not name it again. */
  readonly projectId?: string;
  readonly time: (iso: string) => string;
}

/** At most this many secrets are named in one sentence (an export's read names up to 1,000). */
export const MAX_SECRETS_NAMED = 10;

const quoted = (text: string): string => `“${text}”`;

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** `a, b and c` */
const listed = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const tokenPhrase = (tokenId: string | null, reading: Reading, own: string | null = null): string => {
  const name = own ?? (tokenId === null ? undefined : reading.names.tokens.get(tokenId));
  if (name !== undefined) return `token ${quoted(name)}`;
  return tokenId === null ? 'a token' : `token ${tokenId}`;
};

const projectPhrase = (projectId: string, reading: Reading): string => {
  const name = reading.names.projects.get(projectId);
  return name === undefined ? `project ${projectId}` : quoted(name);
};

/** ` of “payments”` when the event is of another project than the trail's, else nothing. */
const ofProject = (event: AuditEvent, reading: Reading, preposition: string): string => {
  const { projectId } = event.target;
  return projectId === null || projectId === reading.projectId
    ? ''
    : ` ${preposition} ${projectPhrase(projectId, reading)}`;
};

const personPhrase = (event: AuditEvent): string =>
  event.target.email ?? (event.target.userId === null ? 'someone' : `user ${event.target.userId}`);

/** `in production` (of the project, when the trail is not the project's). */
const inEnvironment = (event: AuditEvent, reading: Reading): string =>
  event.details.environment === null
    ? ofProject(event, reading, 'in')
    : ` in ${event.details.environment}${ofProject(event, reading, 'of')}`;

/**
 * `Updated DATABASE_URL (version 3) in production`; several secrets (an import, an export's read) are
 * counted, then listed after the environment, at most {@link MAX_SECRETS_NAMED} of them.
 */
const secretSentence = (verb: string, event: AuditEvent, reading: Reading): string => {
  const secrets = event.details.secrets ?? [];
  const where = inEnvironment(event, reading);
  const named = secrets.slice(0, MAX_SECRETS_NAMED).map(({ name, version }) => `${name} (version ${version})`);
  if (named.length === 1) return `${verb} ${named.join('')}${where}`;
  const more = secrets.length - named.length;
  const list = more > 0 ? [...named, `${more} more`] : named;
  return `${verb} ${plural(secrets.length, 'secret', 'secrets')}${where}${list.length > 0 ? `: ${listed(list)}` : ''}`;
};

const expiryPhrase = (expiresAt: string | null, reading: Reading): string =>
  expiresAt === null ? 'never expires' : `expires ${reading.time(expiresAt)}`;

const denialWords: ReadonlyMap<DenialReason, string> = new Map<DenialReason, string>([
  ['expired', 'it has expired'],
  ['ip', 'it does not work from that address'],
  ['scope', 'it lacks the scope the request needs'],
  ['resource', 'it does not reach that project or environment'],
  ['route', 'it is a service account’s, on a route no service account may call'],
]);

/** Why a sign-in as a service account was refused, in words (`service_account.denied` of a sign-in). */
const signInWords: ReadonlyMap<SignInRefusal, string> = new Map<SignInRefusal, string>([
  ['no-rule', 'no trust rule of that kind'],
  ['malformed', 'the proof could not be read'],
  ['issuer', 'no rule trusts that issuer'],
  ['discovery', 'the issuer’s keys could not be fetched'],
  ['algorithm', 'the token was not signed with an accepted algorithm'],
  ['unknown-key', 'the token was signed with a key the issuer does not publish'],
  ['signature', 'the signature did not verify'],
  ['expired', 'the token had expired'],
  ['not-yet-valid', 'the token was not valid yet'],
  ['audience', 'the token was for another audience'],
  ['subject', 'no rule trusts that subject'],
  ['claim', 'a claim a rule requires did not match'],
  ['not-get-caller-identity', 'the signed request was not sts:GetCallerIdentity'],
  ['service-header', 'the signed request did not name this service'],
  ['sts-host', 'the signed request was not for STS'],
  ['sts-unavailable', 'STS could not be asked'],
  ['principal', 'no rule trusts that AWS principal'],
]);

/** A change request's id, as its events name it. */
const changeRequest = (event: AuditEvent): string => event.target.changeRequestId ?? '';

/** `production: read, staging: write`, by environment name. */
const accessPhrase = (access: AuditEvent['details']['access']): string =>
  Object.entries(access ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([environment, level]) => `${environment}: ${level}`)
    .join(', ');

/** A service account by its name, else its id: the events of a service account itself name it in `details.name`. */
const serviceAccountPhrase = ({ target, details }: AuditEvent): string =>
  details.name === null ? (target.serviceAccountId ?? '') : quoted(details.name);

/**
 * The service account of an event about one of its tokens, or about its token's use: by the name
 * known (or the acting service account's own), else its id. Its `details.name` is the token's.
 */
const tokenOwnerPhrase = ({ target, actor }: AuditEvent, reading: Reading): string => {
  const id = target.serviceAccountId;
  const name =
    (id === null ? undefined : reading.names.serviceAccounts?.get(id)) ??
    (actor.type === 'serviceAccount' && actor.id === id && actor.name !== null ? actor.name : undefined);
  return name === undefined ? (id ?? '') : quoted(name);
};

/**
 * A trust rule as its event's `details.note` holds it (`oidc <issuer> <subject>`, `aws <ARN> …`), in
 * words: `the subject repo:acme/app:ref:refs/heads/main of https://token.actions.githubusercontent.com`,
 * `the AWS principal arn:aws:iam::123456789012:role/deploy`; another form as it is.
 */
const rulePhrase = (note: string | null): string => {
  if (note === null) return 'a rule';
  const [kind, first, ...rest] = note.split(' ');
  if (kind === 'oidc' && first !== undefined && rest.length > 0) return `the subject ${rest.join(' ')} of ${first}`;
  if (kind === 'aws' && first !== undefined) {
    const principals = [first, ...rest];
    return `the AWS ${principals.length === 1 ? 'principal' : 'principals'} ${listed(principals)}`;
  }
  return note;
};

/** `protected, 2 approvals, members read by default`: the settings an environment's change set. */
const settingsPhrase = (details: AuditEvent['details']): string =>
  [
    details.protected === null ? undefined : details.protected ? 'protected' : 'open to direct writes',
    details.approvals === null ? undefined : plural(details.approvals, 'approval', 'approvals'),
    details.defaultAccess === null ? undefined : `members ${details.defaultAccess} by default`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');

const viewsLeftPhrase = (viewsLeft: number | null): string =>
  viewsLeft === null ? '' : ` (${plural(viewsLeft, 'view', 'views')} left)`;

/**
 * What happened, as a sentence. Exhaustive over the event types: a new type has no sentence until it
 * gets one here, and the type checker says so (its `never`).
 */
export const eventSentence = (event: AuditEvent, reading: Reading): string => {
  const { details, target } = event;
  switch (event.type) {
    case 'token.created':
      return `Created ${tokenPhrase(target.tokenId, reading, details.name)} with ${listed(details.scopes ?? [])}; it ${expiryPhrase(details.expiresAt, reading)}`;
    case 'token.revoked':
      return `Revoked ${tokenPhrase(target.tokenId, reading)}`;
    case 'token.rotated':
      return [
        `Rotated ${tokenPhrase(target.tokenId, reading, details.name)}`,
        details.stopsAt === null ? '' : `: it works until ${reading.time(details.stopsAt)}`,
        `; its replacement ${expiryPhrase(details.expiresAt, reading)}`,
      ].join('');
    case 'token.expiring':
      return [
        `Notice: ${tokenPhrase(target.tokenId, reading, details.name)} expires`,
        details.daysLeft === null ? '' : ` within ${plural(details.daysLeft, 'day', 'days')}`,
        details.expiresAt === null ? '' : `, ${reading.time(details.expiresAt)}`,
      ].join('');
    case 'token.denied': {
      const why = details.reason === null ? undefined : denialWords.get(details.reason as DenialReason);
      return `Refused ${tokenPhrase(target.tokenId, reading)}${why === undefined ? '' : `: ${why}`}`;
    }
    case 'project.created':
      return `Created project ${details.name === null ? (target.projectId ?? '') : quoted(details.name)}`;
    case 'member.added':
      return `Added ${personPhrase(event)}${details.role === null ? '' : ` as ${details.role}`}${ofProject(event, reading, 'to')}`;
    case 'member.removed':
      return `Removed ${personPhrase(event)}${ofProject(event, reading, 'from')}`;
    case 'member.left':
      return target.projectId === null || target.projectId === reading.projectId
        ? 'Left the project'
        : `Left ${projectPhrase(target.projectId, reading)}`;
    case 'environment.created':
      return `Created environment ${details.environment ?? ''}${ofProject(event, reading, 'in')}`;
    case 'environment.deleted':
      return `Deleted environment ${details.environment ?? ''}${ofProject(event, reading, 'of')}`;
    case 'environment.updated':
      return `Changed environment ${details.environment ?? ''}${ofProject(event, reading, 'of')}: ${settingsPhrase(details)}`;
    case 'member.access_changed':
      return `Set the access of ${personPhrase(event)}${ofProject(event, reading, 'in')}: ${accessPhrase(details.access)}`;
    case 'access.denied':
      return `Refused ${details.needed ?? 'access'} access${inEnvironment(event, reading)}`;
    case 'secret.created':
      return secretSentence('Created', event, reading);
    case 'secret.updated':
      return secretSentence('Updated', event, reading);
    case 'secret.deleted':
      return secretSentence('Deleted', event, reading);
    case 'secret.restored':
      return secretSentence('Restored', event, reading);
    case 'secret.read':
      return secretSentence('Read', event, reading);
    case 'change_request.created':
      return `Proposed change request ${changeRequest(event)}${inEnvironment(event, reading)}${details.note === null ? '' : `: ${quoted(details.note)}`}`;
    case 'change_request.approved':
      return `Approved change request ${changeRequest(event)}${inEnvironment(event, reading)}`;
    case 'change_request.rejected':
      return `Rejected change request ${changeRequest(event)}${inEnvironment(event, reading)}`;
    case 'change_request.cancelled':
      return `Cancelled change request ${changeRequest(event)}${inEnvironment(event, reading)}`;
    case 'change_request.applied':
      return secretSentence(`Applied change request ${changeRequest(event)}:`, event, reading);
    case 'change_request.conflicted':
      return `Found change request ${changeRequest(event)} out of date${inEnvironment(event, reading)}: nothing was written`;
    case 'change_request.forced':
      return `Applied change request ${changeRequest(event)} without its approvals${inEnvironment(event, reading)}${details.note === null ? '' : `, because ${quoted(details.note)}`}`;
    case 'share.created':
      return [
        `Created share ${target.shareId ?? ''}`,
        details.maxViews === null ? '' : ` for ${plural(details.maxViews, 'view', 'views')}`,
        details.expiresAt === null ? '' : `; it expires ${reading.time(details.expiresAt)}`,
      ].join('');
    case 'share.revealed':
      return `Revealed share ${target.shareId ?? ''}${target.email === null ? '' : ` of ${target.email}`}${viewsLeftPhrase(details.viewsLeft)}`;
    case 'share.deleted':
      return `Withdrew share ${target.shareId ?? ''}`;
    case 'service_account.created':
      return `Created service account ${serviceAccountPhrase(event)}${ofProject(event, reading, 'in')}: ${accessPhrase(details.access) || 'no access yet'}`;
    case 'service_account.updated':
      return `Changed service account ${serviceAccountPhrase(event)}${ofProject(event, reading, 'of')}: ${accessPhrase(details.access) || 'no access'}`;
    case 'service_account.deleted':
      return `Deleted service account ${serviceAccountPhrase(event)}${ofProject(event, reading, 'of')}`;
    case 'service_account.token.created':
      return `Created ${tokenPhrase(target.tokenId, reading, details.name)} of service account ${tokenOwnerPhrase(event, reading)}${details.expiresAt === null ? '' : `; it expires ${reading.time(details.expiresAt)}`}`;
    case 'service_account.token.revoked':
      return `Revoked ${tokenPhrase(target.tokenId, reading, details.name)} of service account ${tokenOwnerPhrase(event, reading)}`;
    case 'service_account.token.rotated':
      return `Rotated ${tokenPhrase(target.tokenId, reading, details.name)} of service account ${tokenOwnerPhrase(event, reading)}${details.stopsAt === null ? '' : `; the old one stops ${reading.time(details.stopsAt)}`}`;
    case 'service_account.trust_rule.added':
      return `Trusted ${rulePhrase(details.note)} to sign in as service account ${serviceAccountPhrase(event)}`;
    case 'service_account.trust_rule.deleted':
      return `Stopped trusting ${rulePhrase(details.note)} to sign in as service account ${serviceAccountPhrase(event)}`;
    case 'service_account.signed_in':
      return `Signed in as service account ${tokenOwnerPhrase(event, reading)}${event.actor.subject === null ? '' : ` with ${event.actor.subject}`}`;
    case 'service_account.denied':
      return `Refused service account ${tokenOwnerPhrase(event, reading)}${details.reason === null ? '' : `: ${denialWords.get(details.reason as DenialReason) ?? signInWords.get(details.reason as SignInRefusal) ?? details.reason}`}`;
    case 'user.offboarded':
      return `Offboarded ${personPhrase(event)}: their tokens revoked and their memberships removed`;
    case 'webhook.created':
      return `Registered webhook ${target.webhookId ?? ''}${details.url === null ? '' : ` to ${details.url}`}${ofProject(event, reading, 'in')}`;
    case 'webhook.deleted':
      return `Deleted webhook ${target.webhookId ?? ''}${details.url === null ? '' : ` to ${details.url}`}${ofProject(event, reading, 'of')}`;
    case 'webhook.pinged':
      return `Pinged webhook ${target.webhookId ?? ''}${ofProject(event, reading, 'of')}`;
    default: {
      // A type this dashboard does not know yet (a newer service): its name, rather than nothing.
      const unknown: never = event.type;
      return String(unknown);
    }
  }
};

/** Who acted: the service, or a person, with the token they used when they used one. */
export const actorWords = (event: AuditEvent, reading: Reading): string => {
  const { actor } = event;
  if (actor.type === 'system') return 'the service';
  if (actor.type === 'serviceAccount') {
    const who = `service account ${actor.name === null ? (actor.id ?? '') : quoted(actor.name)}`;
    return actor.tokenId === null ? who : `${who} with ${tokenPhrase(actor.tokenId, reading)}`;
  }
  const who = actor.email ?? (actor.userId === null ? 'someone' : `user ${actor.userId}`);
  return actor.via === 'token' ? `${who} with ${tokenPhrase(actor.tokenId, reading)}` : who;
};

/**
 * The token names `events` tell (a creation, a rotation, a notice names its token; a rotation's
 * replacement has the same name) over those already known: a revoked token is in no list any more.
 */
export const tokenNamesIn = (
  events: readonly AuditEvent[],
  known: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> => {
  const names = new Map(known);
  for (const { target, details } of events) {
    if (details.name === null) continue;
    if (target.tokenId !== null && !names.has(target.tokenId)) names.set(target.tokenId, details.name);
    if (details.replacedBy !== null && !names.has(details.replacedBy)) names.set(details.replacedBy, details.name);
  }
  return names;
};

/** The events of a service account itself and of its trust rules, whose `details.name` is the service account's. */
const SERVICE_ACCOUNT_EVENTS: ReadonlySet<AuditEvent['type']> = new Set([
  'service_account.created',
  'service_account.updated',
  'service_account.deleted',
  'service_account.trust_rule.added',
  'service_account.trust_rule.deleted',
]);

/**
 * The service account names `events` tell (a creation, a change, a delete; the newest first, as the
 * trail is) over those already known: one deleted since is in no list any more.
 */
export const serviceAccountNamesIn = (
  events: readonly AuditEvent[],
  known: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> => {
  const names = new Map(known);
  for (const { type, target, details } of events) {
    if (!SERVICE_ACCOUNT_EVENTS.has(type) || details.name === null || target.serviceAccountId === null) continue;
    if (!names.has(target.serviceAccountId)) names.set(target.serviceAccountId, details.name);
  }
  return names;
};
