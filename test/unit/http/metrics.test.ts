import { metricFields } from '@lambdas/http/metrics';

describe('metricFields (embedded metric format)', () => {
  it('counts a cold start on the first record of a container only, then the metrics asked for', () => {
    const first = metricFields('authorizer', [{ name: 'AuthorizerDecision' }], { outcome: 'allowed' });
    expect(first).toMatchObject({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'SecretsService',
            Dimensions: [['outcome']],
            Metrics: [{ Name: 'AuthorizerDecision', Unit: 'Count' }],
          },
          { Namespace: 'SecretsService', Dimensions: [['function']], Metrics: [{ Name: 'ColdStart', Unit: 'Count' }] },
        ],
      },
      outcome: 'allowed',
      function: 'authorizer',
      AuthorizerDecision: 1,
      ColdStart: 1,
    });

    const second = metricFields('authorizer', [{ name: 'AuthorizerDecision' }], { outcome: 'invalid' });
    expect(second.ColdStart).toBeUndefined();
    expect((second._aws as { CloudWatchMetrics: unknown[] }).CloudWatchMetrics).toHaveLength(1);
  });

  it('adds nothing to a warm line without metrics', () => {
    metricFields('list-tokens', []);
    expect(metricFields('list-tokens', [])).toEqual({});
  });

  it('records a metric without dimensions under one empty dimension set', () => {
    metricFields('x', []);
    const line = metricFields('create-token', [{ name: 'TokensCreated' }]);
    expect(line).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Dimensions: [[]], Metrics: [{ Name: 'TokensCreated' }] }] },
      TokensCreated: 1,
    });
  });
});
