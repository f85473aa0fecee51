import { createHmac } from 'node:crypto';
import type { AuditEvent } from '@contract/audit';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import {
  MAX_DELIVERY_ATTEMPTS,
  patternMatches,
  RETRY_DELAYS_SECONDS,
  retryDelaySeconds,
  signatureHeader,
  webhookReceives,
} from '@lambdas/domain/webhooks';

const event = (type: AuditEvent['type'], environment: string | null): AuditEvent =>
  auditEvent(
    type,
    systemOrigin,
    new Date('2026-11-29T06:00:00Z'),
    { projectId: 'prj_AAAAAAAAAAAAAAAA' },
    { environment },
  );

describe('patternMatches', () => {
  it.each([
    ['secret.updated', 'secret.updated', true],
    ['secret.*', 'secret.updated', true],
    ['secret.*', 'secrets.updated', false],
    ['change_request.*', 'change_request.applied', true],
    ['secret.updated', 'secret.created', false],
    ['secret', 'secret.created', false],
  ])('%s against %s: %s', (pattern, type, expected) => {
    expect(patternMatches(pattern, type)).toBe(expected);
  });
});

describe('webhookReceives', () => {
  it('takes an event whose type matches a pattern', () => {
    const webhook = { events: ['change_request.*', 'secret.updated'], environments: null };
    expect(webhookReceives(webhook, event('secret.updated', 'production'))).toBe(true);
    expect(webhookReceives(webhook, event('change_request.created', 'staging'))).toBe(true);
    expect(webhookReceives(webhook, event('secret.read', 'production'))).toBe(false);
  });

  it('takes only events of the environments it lists, when it lists some', () => {
    const webhook = { events: ['secret.*'], environments: ['production'] };
    expect(webhookReceives(webhook, event('secret.updated', 'production'))).toBe(true);
    expect(webhookReceives(webhook, event('secret.updated', 'staging'))).toBe(false);
    expect(webhookReceives({ events: ['member.*'], environments: ['production'] }, event('member.added', null))).toBe(
      false,
    );
  });
});

describe('signatureHeader', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 in lowercase hex', () => {
    const body = '{"id":"evt_1"}';
    const expected = createHmac('sha256', 'whsec_test').update(`1764396000.${body}`).digest('hex');
    expect(signatureHeader('whsec_test', 1764396000, body)).toBe(`t=1764396000,v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('retryDelaySeconds', () => {
  it('backs off over about 24 hours, then stops', () => {
    const waited = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(waited).toBeGreaterThanOrEqual(23.5 * 3600);
    expect(waited).toBeLessThanOrEqual(24 * 3600);
    expect(retryDelaySeconds(1)).toBe(60);
    expect(retryDelaySeconds(MAX_DELIVERY_ATTEMPTS - 1)).toBe(28_800);
    expect(retryDelaySeconds(MAX_DELIVERY_ATTEMPTS)).toBeNull();
  });
});
