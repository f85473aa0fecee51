/**
 * Every DynamoDB key of the single table, built in one place. Prefixes name the entity; the entity
 * chart in docs/data-model.md mirrors this file. Access hangs on user ids (the identity provider's
 * `sub`), never on e-mail addresses: an address only finds its user through the e-mail claim.
 */
import { SERVICE_ACCOUNT_ID_PATTERN } from '@contract/identifiers';
import { keyPrefix, SECRET_HEAD_SORT_KEY_PREFIX } from '@contract/table-schema';

/** Primary key of an item. */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** The partition of everything keyed by one user. */
export const userPartition = (userId: string): string => `${keyPrefix.user}${userId}`;

/** A token, addressed by its public id (the authorizer's one read). */
export const tokenKey = (tokenId: string): ItemKey => ({ PK: `${keyPrefix.token}${tokenId}`, SK: 'TOKEN' });

/** Partition of a user's token list in the list index. */
export const tokenListPartition = (userId: string): string => `${userPartition(userId)}#TOKENS`;

/** List-index keys that place a token in its owner's list, newest first by creation time. */
export const tokenListKeys = (userId: string, createdAt: string, tokenId: string) => ({
  GSI1PK: tokenListPartition(userId),
  GSI1SK: `${createdAt}#${tokenId}`,
});

/** Partition of the notice index that holds the expiry notices due on one day, `YYYY-MM-DD` (UTC). */
export const noticeDayPartition = (day: string): string => `${keyPrefix.notice}${day}`;

/**
 * Notice-index keys of a token's next expiry notice: the day it is due, then its time and the token,
 * so that a run reads each day's due notices up to now.
 */
export const expiryNoticeKeys = (dueAt: string, tokenId: string) => ({
  GSI2PK: noticeDayPartition(dueAt.slice(0, 10)),
  GSI2SK: `${dueAt}#${tokenId}`,
});

/** A user's token slots: the live tokens counted against the per-user limit, and any offboarding mark. */
export const tokenSlotsKey = (userId: string): ItemKey => ({ PK: userPartition(userId), SK: 'TOKEN_SLOTS' });

/** A user's profile: the verified e-mail of their latest session, for display. */
export const userProfileKey = (userId: string): ItemKey => ({ PK: userPartition(userId), SK: 'PROFILE' });

/** The claim of a verified e-mail address by the user whose latest session carried it. */
export const emailClaimKey = (email: string): ItemKey => ({ PK: `${keyPrefix.email}${email}`, SK: 'USER' });

/** A project. */
export const projectKey = (projectId: string): ItemKey => ({ PK: `${keyPrefix.project}${projectId}`, SK: 'PROJECT' });

/** Sort-key prefix of the member items in a project's partition. */
export const MEMBER_PREFIX = 'MEMBER#';

/**
 * One member of a project, by user id; for a service account's id, the service account, which stands in
 * its project as a member (member-item.ts `asMember`). No user holds such an id: the authorizer refuses a
 * session whose subject has the form.
 */
export const memberKey = (projectId: string, userId: string): ItemKey =>
  SERVICE_ACCOUNT_ID_PATTERN.test(userId)
    ? serviceAccountKey(projectId, userId)
    : { PK: projectKey(projectId).PK, SK: `${MEMBER_PREFIX}${userId}` };

/** Sort-key prefix of the environment items in a project's partition. */
export const ENVIRONMENT_PREFIX = 'ENV#';

/** One environment of a project, by name. */
export const environmentKey = (projectId: string, name: string): ItemKey => ({
  PK: projectKey(projectId).PK,
  SK: `${ENVIRONMENT_PREFIX}${name}`,
});

/** Sort-key prefix of the service accounts in a project's partition. */
export const SERVICE_ACCOUNT_PREFIX = 'SERVICE_ACCOUNT#';

/** One service account of a project, by id. */
export const serviceAccountKey = (projectId: string, serviceAccountId: string): ItemKey => ({
  PK: projectKey(projectId).PK,
  SK: `${SERVICE_ACCOUNT_PREFIX}${serviceAccountId}`,
});

/**
 * A service account's trust rules, addressed by its id alone (a sign-in names nothing else), with its
 * project: the service account itself is in its project's partition.
 */
export const trustRulesKey = (serviceAccountId: string): ItemKey => ({
  PK: `${keyPrefix.serviceAccount}${serviceAccountId}`,
  SK: 'TRUST_RULES',
});

/** The partition of one environment's secrets: each one's head and its versions. */
export const secretsPartition = (projectId: string, environment: string): string =>
  `${keyPrefix.secrets}${projectId}#${environment}`;

/** Sort-key prefix of the secret heads in an environment's partition. */
export const SECRET_HEAD_PREFIX = SECRET_HEAD_SORT_KEY_PREFIX;

/** A secret's head: its current version (and value), by name. */
export const secretHeadKey = (projectId: string, environment: string, name: string): ItemKey => ({
  PK: secretsPartition(projectId, environment),
  SK: `${SECRET_HEAD_PREFIX}${name}`,
});

/** Sort-key prefix of the versions of every life of a secret. */
export const secretVersionsPrefix = (name: string): string => `VERSION#${name}#`;

/**
 * Sort-key prefix of the versions of one life of a secret (from its first write to the expiry of its
 * delete): a name holds no `#`, and a life is a new random id, so the versions of a life that expired
 * never mix with the next one's, whatever is left of them.
 */
export const secretVersionPrefix = (name: string, life: string): string => `${secretVersionsPrefix(name)}${life}#`;

/** The life a version's sort key names (`secretVersionKey`), given the secret's name. */
export const lifeOfSecretVersion = (name: string, sortKey: string): string | undefined => {
  const prefix = secretVersionsPrefix(name);
  if (!sortKey.startsWith(prefix)) return undefined;
  const [life] = sortKey.slice(prefix.length).split('#');
  return life || undefined;
};

/**
 * The environment's secrets partition and the secret's name of a head's key (`secretHeadKey`), or
 * undefined for the key of any other item.
 */
export const secretOfHeadKey = (key: ItemKey): { readonly partition: string; readonly name: string } | undefined =>
  key.PK.startsWith(keyPrefix.secrets) &&
  key.SK.startsWith(SECRET_HEAD_PREFIX) &&
  key.SK.length > SECRET_HEAD_PREFIX.length
    ? { partition: key.PK, name: key.SK.slice(SECRET_HEAD_PREFIX.length) }
    : undefined;

/** One version of a secret, numbered with ten digits so that they sort in order. */
export const secretVersionKey = (
  projectId: string,
  environment: string,
  name: string,
  life: string,
  version: number,
): ItemKey => ({
  PK: secretsPartition(projectId, environment),
  SK: `${secretVersionPrefix(name, life)}${String(version).padStart(10, '0')}`,
});

/** Sort-key prefix of the change requests in an environment's secrets partition. */
export const CHANGE_REQUEST_PREFIX = 'CHANGE#';

/** A change request of an environment, in its secrets partition (beside the heads it changes). */
export const changeRequestKey = (projectId: string, environment: string, id: string): ItemKey => ({
  PK: secretsPartition(projectId, environment),
  SK: `${CHANGE_REQUEST_PREFIX}${id}`,
});

/** Sort-key prefix of the values one change request proposes (never listed with the requests). */
export const proposedValuePrefix = (id: string): string => `CHANGE_VALUE#${id}#`;

/** One value a change request proposes, by the secret's name. */
export const proposedValueKey = (projectId: string, environment: string, id: string, name: string): ItemKey => ({
  PK: secretsPartition(projectId, environment),
  SK: `${proposedValuePrefix(id)}${name}`,
});

/** An environment's change-request slots: its open requests, each with its expiry, for their limit. */
export const changeSlotsKey = (projectId: string, environment: string): ItemKey => ({
  PK: secretsPartition(projectId, environment),
  SK: 'CHANGE_SLOTS',
});

/** Sort-key prefix of the membership items in a user's partition. */
export const MEMBERSHIP_PREFIX = keyPrefix.project;

/**
 * A user's copy of one membership, in the user's own partition: a strongly consistent Query of it
 * lists every project the user belongs to (offboarding must not miss one added a moment ago).
 */
export const membershipKey = (userId: string, projectId: string): ItemKey => ({
  PK: userPartition(userId),
  SK: `${MEMBERSHIP_PREFIX}${projectId}`,
});

/** A share, addressed by its id (the reveal's one read). */
export const shareKey = (shareId: string): ItemKey => ({ PK: `${keyPrefix.share}${shareId}`, SK: 'SHARE' });

/** Partition of a user's share list in the list index. */
export const shareListPartition = (userId: string): string => `${userPartition(userId)}#SHARES`;

/** List-index keys that place a share in its creator's list, newest first by creation time. */
export const shareListKeys = (userId: string, createdAt: string, shareId: string) => ({
  GSI1PK: shareListPartition(userId),
  GSI1SK: `${createdAt}#${shareId}`,
});

/** A user's share slots: the shares counted against the per-person limit, each with its expiry. */
export const shareSlotsKey = (userId: string): ItemKey => ({ PK: userPartition(userId), SK: 'SHARE_SLOTS' });

/** Sort key of an event in a trail: its time, then its id, so that a trail reads in time order. */
export const auditSortKey = (time: string, eventId: string): string => `${time}#${eventId}`;

/** Partition of a user's audit trail: what they did and what happened to their tokens. */
export const userAuditPartition = (userId: string): string => `${keyPrefix.audit}${userId}`;

/** Partition of a project's audit trail in the list index. */
export const projectAuditPartition = (projectId: string): string => `${projectKey(projectId).PK}#AUDIT`;

/**
 * Keys of one audit event: in the trail of the user it concerns (the actor, or the owner of a denied
 * token, or the offboarded user), and, for an event of a project, in the project's trail (list index).
 */
export const auditEventKeys = (event: { time: string; id: string }, userId: string, projectId: string | null) => ({
  PK: userAuditPartition(userId),
  SK: auditSortKey(event.time, event.id),
  ...(projectId !== null && { GSI1PK: projectAuditPartition(projectId), GSI1SK: auditSortKey(event.time, event.id) }),
});

/** Sort-key prefix of the webhook items in a project's partition. */
export const WEBHOOK_PREFIX = 'WEBHOOK#';

/** One webhook of a project, by id. */
export const webhookKey = (projectId: string, webhookId: string): ItemKey => ({
  PK: projectKey(projectId).PK,
  SK: `${WEBHOOK_PREFIX}${webhookId}`,
});

/** Sort-key prefix of one webhook's delivery attempts in its project's partition, which sort by event time. */
export const webhookDeliveryPrefix = (webhookId: string): string => `DELIVERY#${webhookId}#`;

/** Sort-key prefix of the attempts to deliver one event to one webhook. */
export const webhookEventDeliveryPrefix = (webhookId: string, eventTime: string, eventId: string): string =>
  `${webhookDeliveryPrefix(webhookId)}${eventTime}#${eventId}#`;

/**
 * One delivery attempt: its webhook, its event's time and id, and its number, so that a webhook's read
 * newest event first with each event's attempts together, and one event's attempts read alone.
 */
export const webhookDeliveryKey = (
  projectId: string,
  webhookId: string,
  eventTime: string,
  eventId: string,
  attempt: number,
): ItemKey => ({
  PK: projectKey(projectId).PK,
  SK: `${webhookEventDeliveryPrefix(webhookId, eventTime, eventId)}${String(attempt).padStart(2, '0')}`,
});
