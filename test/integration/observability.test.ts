import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The logs a full lifecycle leaves: one authorizer line and one summary line per request, joined by
 * API Gateway's request id, naming the principal and the rule that denied, never the credential, and
 * the metrics in Powertools' embedded-metric-format lines.
 */

type Line = Record<string, unknown> & {
  message?: string;
  _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
};

const lines: Line[] = [];
let service: LocalService;

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      return true;
    });
  }
  service = await startService();
});
afterAll(async () => {
  jest.restoreAllMocks();
  await service.close();
});

const metricNames = (line: Line) =>
  line._aws?.CloudWatchMetrics.flatMap((directive) => directive.Metrics.map((m) => m.Name)) ?? [];

describe('logs and metrics of a lifecycle', () => {
  it('writes one joined authorizer and summary line per request, with metrics and no credential', async () => {
    const email = uniqueEmail('observed');
    const session = await sessionFor(service, email);
    const guest = uniqueEmail('guest');
    await call(service, 'GET', '/api/v1/projects', { token: await sessionFor(service, guest) });
    lines.length = 0;

    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'ci', scopes: ['admin'] },
    });
    const { id, rawToken } = created.body.data as { id: string; rawToken: string };
    const projectId = await createProject(service, session);
    await call(service, 'POST', `/api/v1/projects/${projectId}/members`, {
      token: rawToken,
      json: { email: guest, role: 'member' },
    });
    await call(service, 'DELETE', `/api/v1/projects/${projectId}/members/${encodeURIComponent(guest)}`, {
      token: rawToken,
    });
    const wrongIp = await call(service, 'GET', '/api/v1/tokens', { token: rawToken, from: '127.0.0.2' });
    expect(wrongIp.body.error).toBe(ErrorText.wrongIp);
    await call(service, 'DELETE', `/api/v1/tokens/${id}`, { token: session });
    await call(service, 'GET', '/api/v1/tokens', { token: rawToken });

    const decisions = lines.filter((line) => line.message === 'authorizer decision');
    const summaries = lines.filter((line) => line.message === 'request');
    expect(decisions).toHaveLength(7);
    // The wrong-IP and the revoked request end at the authorizer; the other five reach their route.
    expect(summaries).toHaveLength(5);
    for (const summary of summaries) {
      expect(decisions.map((decision) => decision.requestId)).toContain(summary.requestId);
      expect(typeof summary.latencyMs).toBe('number');
      expect(typeof summary.route).toBe('string');
      expect(summary.userId).toEqual(expect.any(String));
    }
    expect(decisions.map((decision) => [decision.outcome, decision.rule])).toEqual([
      ['allowed', undefined],
      ['allowed', undefined],
      ['allowed', undefined],
      ['allowed', undefined],
      ['wrong_ip', 'token-ip'],
      ['allowed', undefined],
      ['invalid', 'unknown-token'],
    ]);
    const decisionMetrics = lines.filter((line) => metricNames(line).includes('AuthorizerDecision'));
    expect(decisionMetrics.map((line) => line.outcome)).toEqual(decisions.map((decision) => decision.outcome));
    for (const metric of decisionMetrics) {
      expect(metric._aws?.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'SecretsService',
        Dimensions: [['service', 'outcome']],
        Metrics: [{ Name: 'AuthorizerDecision', Unit: 'Count' }],
      });
      expect(metric).toMatchObject({ service: 'secrets-service', AuthorizerDecision: 1 });
    }

    const counted = lines.flatMap(metricNames);
    expect(counted).toEqual(
      expect.arrayContaining(['TokensCreated', 'MembersAdded', 'MembersRemoved', 'TokensRevoked']),
    );
    const text = JSON.stringify(lines);
    for (const secret of [rawToken, session, rawToken.slice(21, 45)]) expect(text).not.toContain(secret);
  });
});
