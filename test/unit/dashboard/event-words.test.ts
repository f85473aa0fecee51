import {
  type AuditDetails,
  type AuditEventType,
  type AuditTarget,
  auditEventTypes,
  denialReasons,
} from '@contract/audit';
import { auditEvent, originOf, systemOrigin } from '@lambdas/domain/audit';
import {
  actorWords,
  eventSentence,
  type KnownNames,
  MAX_SECRETS_NAMED,
  type Reading,
  tokenNamesIn,
} from '../../../dashboard/src/event-words';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const PROJECT = 'prj_payments00000000000';
const OTHER_PROJECT = 'prj_billing000000000000';
const TOKEN = 'tok_deploy0000000000000';

const names: KnownNames = {
  projects: new Map([
    [PROJECT, 'payments'],
    [OTHER_PROJECT, 'billing'],
  ]),
  tokens: new Map([[TOKEN, 'deploy-bot']]),
};

/** The account's trail; a time written as its date, so that sentences are plain to compare. */
const account: Reading = { names, time: (iso) => iso.slice(0, 10) };
/** The trail of the project `payments`. */
const inPayments: Reading = { ...account, projectId: PROJECT };

const bySession = originOf(
  {
    type: 'user',
    id: 'usr_ada',
    name: null,
    userId: 'usr_ada',
    email: 'ada@example.com',
    via: 'session',
    tokenId: null,
    subject: null,
  },
  { sourceIp: '203.0.113.7' },
);

const eventOf = (
  type: AuditEventType,
  target: Partial<AuditTarget> = {},
  details: Partial<AuditDetails> = {},
  origin = bySession,
) => auditEvent(type, origin, NOW, target, details);

/** Every field a type may carry, filled: what each type's sentence reads from. */
const FULL_TARGET: AuditTarget = {
  tokenId: TOKEN,
  projectId: PROJECT,
  userId: 'usr_bob',
  email: 'bob@example.com',
  shareId: 'shr_0000000000000000000001',
  changeRequestId: null,
  serviceAccountId: 'sa_0000000000000001',
  webhookId: null,
};
const FULL_DETAILS: AuditDetails = {
  name: 'deploy-bot',
  scopes: ['read:secrets', 'admin'],
  expiresAt: '2026-12-01T00:00:00.000Z',
  role: 'admin',
  environment: 'production',
  secrets: [{ name: 'DATABASE_URL', version: 3 }],
  reason: 'ip',
  replacedBy: 'tok_next0000000000000000',
  stopsAt: '2026-11-24T12:00:00.000Z',
  daysLeft: 7,
  maxViews: 3,
  viewsLeft: 2,
  access: { production: 'read', staging: 'write' },
  needed: 'write',
  protected: true,
  approvals: 2,
  defaultAccess: 'read',
  url: null,
  note: null,
};

describe('eventSentence', () => {
  it.each(auditEventTypes)('%s: says in words what happened, with no object, null or undefined in it', (type) => {
    const sentence = eventSentence(eventOf(type, FULL_TARGET, FULL_DETAILS), account);
    // A type without its own sentence would show its bare name.
    expect(sentence).not.toBe(type);
    expect(sentence).not.toMatch(/\[object|null|undefined|NaN/);
  });

  it('names the secret changed, its version and its environment in the project’s own trail', () => {
    const details = { environment: 'production', secrets: [{ name: 'DATABASE_URL', version: 3 }] };
    const say = (type: AuditEventType) => eventSentence(eventOf(type, { projectId: PROJECT }, details), inPayments);
    expect(say('secret.created')).toBe('Created DATABASE_URL (version 3) in production');
    expect(say('secret.updated')).toBe('Updated DATABASE_URL (version 3) in production');
    expect(say('secret.deleted')).toBe('Deleted DATABASE_URL (version 3) in production');
    expect(say('secret.restored')).toBe('Restored DATABASE_URL (version 3) in production');
    expect(say('secret.read')).toBe('Read DATABASE_URL (version 3) in production');
  });

  it('names the project by its name in the account’s trail, and by its id when the reader does not know it', () => {
    const details = { environment: 'staging', secrets: [{ name: 'API_KEY', version: 1 }] };
    expect(eventSentence(eventOf('secret.created', { projectId: OTHER_PROJECT }, details), account)).toBe(
      'Created API_KEY (version 1) in staging of “billing”',
    );
    expect(eventSentence(eventOf('secret.created', { projectId: 'prj_gone' }, details), account)).toBe(
      'Created API_KEY (version 1) in staging of project prj_gone',
    );
    expect(
      eventSentence(
        eventOf('member.added', { projectId: OTHER_PROJECT, email: 'bob@example.com' }, { role: 'member' }),
        account,
      ),
    ).toBe('Added bob@example.com as member to “billing”');
  });

  it('counts the secrets an export read and lists the first of them', () => {
    const secrets = Array.from({ length: MAX_SECRETS_NAMED + 2 }, (_, index) => ({ name: `S${index}`, version: 1 }));
    const sentence = eventSentence(
      eventOf('secret.read', { projectId: PROJECT }, { environment: 'production', secrets }),
      inPayments,
    );
    expect(sentence).toBe(
      `Read 12 secrets in production: ${secrets
        .slice(0, MAX_SECRETS_NAMED)
        .map(({ name }) => `${name} (version 1)`)
        .join(', ')} and 2 more`,
    );
    const two = [
      { name: 'A', version: 2 },
      { name: 'B', version: 1 },
    ];
    expect(
      eventSentence(eventOf('secret.read', { projectId: PROJECT }, { environment: 'dev', secrets: two }), inPayments),
    ).toBe('Read 2 secrets in dev: A (version 2) and B (version 1)');
  });

  it('names a token by its name when the reader knows it, else by its id', () => {
    expect(eventSentence(eventOf('token.revoked', { tokenId: TOKEN }), account)).toBe('Revoked token “deploy-bot”');
    expect(eventSentence(eventOf('token.revoked', { tokenId: 'tok_other' }), account)).toBe('Revoked token tok_other');
    expect(
      eventSentence(
        eventOf('token.created', { tokenId: 'tok_new' }, { name: 'ci', scopes: ['read:secrets'], expiresAt: null }),
        account,
      ),
    ).toBe('Created token “ci” with read:secrets; it never expires');
    expect(
      eventSentence(eventOf('token.rotated', { tokenId: TOKEN }, { ...FULL_DETAILS, expiresAt: null }), account),
    ).toBe('Rotated token “deploy-bot”: it works until 2026-11-24; its replacement never expires');
  });

  it.each(denialReasons)('says why a token was refused (%s)', (reason) => {
    const sentence = eventSentence(eventOf('token.denied', { tokenId: TOKEN }, { reason }), account);
    expect(sentence).toMatch(/^Refused token “deploy-bot”: it .+/);
  });

  it('says a share’s views and a member’s removal in words', () => {
    const shareId = 'shr_0000000000000000000001';
    expect(
      eventSentence(
        eventOf('share.created', { shareId }, { maxViews: 1, expiresAt: '2026-11-24T12:00:00.000Z', viewsLeft: 1 }),
        account,
      ),
    ).toBe(`Created share ${shareId} for 1 view; it expires 2026-11-24`);
    expect(
      eventSentence(eventOf('share.revealed', { shareId, email: 'ada@example.com' }, { viewsLeft: 0 }), account),
    ).toBe(`Revealed share ${shareId} of ada@example.com (0 views left)`);
    expect(
      eventSentence(
        eventOf('member.removed', { projectId: PROJECT, email: 'bob@example.com' }, {}, systemOrigin),
        inPayments,
      ),
    ).toBe('Removed bob@example.com');
  });

  it('names a service account and the access it was given, in its project’s trail and outside it', () => {
    const serviceAccountId = 'sa_0000000000000001';
    const target = { projectId: PROJECT, serviceAccountId };
    const created = eventOf('service_account.created', target, { name: 'ci', access: { staging: 'read' } });
    expect(eventSentence(created, inPayments)).toBe('Created service account “ci”: staging: read');
    expect(eventSentence(created, account)).toBe('Created service account “ci” in “payments”: staging: read');
    expect(eventSentence(eventOf('service_account.updated', target, { name: 'ci', access: {} }), inPayments)).toBe(
      'Changed service account “ci”: no access',
    );
    expect(eventSentence(eventOf('service_account.deleted', target), inPayments)).toBe(
      `Deleted service account ${serviceAccountId}`,
    );
  });

  it('says a member left, naming the project outside its own trail', () => {
    const left = eventOf('member.left', { projectId: PROJECT, userId: 'usr_ada', email: 'ada@example.com' });
    expect(eventSentence(left, inPayments)).toBe('Left the project');
    expect(eventSentence(left, account)).toBe('Left “payments”');
    expect(actorWords(left, account)).toBe('ada@example.com');
  });

  it('shows names that are also the names of Object’s own properties as they are', () => {
    const prototypeNames = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
    const reading: Reading = {
      names: { projects: new Map(), tokens: new Map() },
      time: (iso) => iso,
    };
    for (const name of prototypeNames) {
      const secrets = [{ name, version: 1 }];
      expect(
        eventSentence(eventOf('secret.updated', { projectId: name }, { environment: 'dev', secrets }), reading),
      ).toBe(`Updated ${name} (version 1) in dev of project ${name}`);
      expect(eventSentence(eventOf('token.revoked', { tokenId: name }), reading)).toBe(`Revoked token ${name}`);
      expect(eventSentence(eventOf('project.created', { projectId: PROJECT }, { name }), reading)).toBe(
        `Created project “${name}”`,
      );
    }
  });
});

describe('actorWords', () => {
  it('says who acted, with the token they used', () => {
    const byToken = originOf(
      {
        type: 'user',
        id: 'usr_ada',
        name: null,
        userId: 'usr_ada',
        email: 'ada@example.com',
        via: 'token',
        tokenId: TOKEN,
        subject: null,
      },
      {},
    );
    expect(actorWords(eventOf('secret.read', {}, {}, byToken), account)).toBe(
      'ada@example.com with token “deploy-bot”',
    );
    expect(actorWords(eventOf('secret.read'), account)).toBe('ada@example.com');
    expect(actorWords(eventOf('user.offboarded', {}, {}, systemOrigin), account)).toBe('the service');
  });
});

describe('tokenNamesIn', () => {
  it('learns the names that creations and rotations tell, a replacement named as the token it replaced', () => {
    const events = [
      eventOf('token.created', { tokenId: 'tok_a' }, { name: 'ci' }),
      eventOf('token.rotated', { tokenId: 'tok_b' }, { name: 'office', replacedBy: 'tok_c' }),
      eventOf('token.revoked', { tokenId: 'tok_a' }),
    ];
    expect([...tokenNamesIn(events, names.tokens)]).toEqual([
      [TOKEN, 'deploy-bot'],
      ['tok_a', 'ci'],
      ['tok_b', 'office'],
      ['tok_c', 'office'],
    ]);
  });
});
