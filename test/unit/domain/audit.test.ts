import { auditEventSchema, MAX_USER_AGENT_LENGTH } from '@contract/audit';
import { actorOf, auditEvent, originOf, requestOrigin, systemOrigin } from '@lambdas/domain/audit';
import type { Principal } from '@lambdas/domain/principal';

const at = new Date('2031-02-03T04:05:06.789Z');
const person = (fields: Partial<Principal>): Principal => ({
  kind: 'session',
  userId: 'user-1',
  email: 'ada@example.com',
  scopes: ['admin'],
  ...fields,
});

describe('the actor an event records', () => {
  it('is a person through a session, or through one of their tokens by its id', () => {
    expect(actorOf(person({}))).toEqual({
      type: 'user',
      id: 'user-1',
      name: null,
      userId: 'user-1',
      email: 'ada@example.com',
      via: 'session',
      tokenId: null,
      subject: null,
    });
    expect(actorOf(person({ kind: 'token', tokenId: 'AAAAAAAAAAAA', email: undefined }))).toEqual({
      type: 'user',
      id: 'user-1',
      name: null,
      userId: 'user-1',
      email: null,
      via: 'token',
      tokenId: 'AAAAAAAAAAAA',
      subject: null,
    });
  });

  it('is a service account through its token, with its name and whom it proved to be, or nulls', () => {
    const account = { kind: 'serviceAccount', userId: 'sa_AAAAAAAAAAAAAAAA', scopes: ['read:secrets'] } as const;
    expect(
      actorOf({ ...account, name: 'deploy', tokenId: 'BBBBBBBBBBBB', subject: 'https://issuer#repo:main' }),
    ).toEqual({
      type: 'serviceAccount',
      id: 'sa_AAAAAAAAAAAAAAAA',
      name: 'deploy',
      userId: null,
      email: null,
      via: 'token',
      tokenId: 'BBBBBBBBBBBB',
      subject: 'https://issuer#repo:main',
    });
    expect(actorOf(account)).toMatchObject({ name: null, tokenId: null, subject: null });
  });

  it('is the service itself for what it does on its own', () => {
    expect(systemOrigin.actor).toMatchObject({ type: 'system', id: null, via: 'system' });
    expect(auditEventSchema().shape.actor.safeParse(systemOrigin.actor).success).toBe(true);
  });
});

describe('where a request came from', () => {
  it('keeps the address, the request id and the user agent cut to what an event keeps', () => {
    const long = 'x'.repeat(MAX_USER_AGENT_LENGTH + 10);
    const origin = requestOrigin(person({}), { sourceIp: '203.0.113.7', userAgent: long, requestId: 'req-1' });
    expect(origin).toMatchObject({ sourceIp: '203.0.113.7', userAgent: 'x'.repeat(MAX_USER_AGENT_LENGTH) });
    expect(origin.requestId).toBe('req-1');
    expect(origin.actor.via).toBe('session');
  });

  it('records what API Gateway did not tell, or told empty, as null', () => {
    const actor = actorOf(person({}));
    for (const facts of [{}, { sourceIp: '', userAgent: '', requestId: '' }]) {
      expect(originOf(actor, facts)).toEqual({ actor, sourceIp: null, userAgent: null, requestId: null });
    }
  });
});

describe('auditEvent', () => {
  it('gives every field of the target and details, null where not given', () => {
    const origin = originOf(actorOf(person({})), { requestId: 'req-1' });
    const event = auditEvent('secret.read', origin, at, { projectId: 'prj_a' }, { environment: 'production' });
    const schema = auditEventSchema();
    expect(schema.safeParse(event).success).toBe(true);
    expect(Object.keys(event.target).sort()).toEqual(Object.keys(schema.shape.target.shape).sort());
    expect(Object.keys(event.details).sort()).toEqual(Object.keys(schema.shape.details.shape).sort());
    expect(event).toMatchObject({
      time: '2031-02-03T04:05:06.789Z',
      type: 'secret.read',
      target: { projectId: 'prj_a', tokenId: null },
      details: { environment: 'production', secrets: null },
      requestId: 'req-1',
    });
    const other = auditEvent('project.created', origin, at);
    expect(other.target.projectId).toBeNull();
    expect(other.id).not.toBe(event.id);
  });
});
