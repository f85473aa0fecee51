import { corsHeaders, preflightHeaders } from '@contract/cors';
import { gatewayResponses } from '@contract/gateway-responses';
import { methodsByPath } from '@contract/route-table';
import { routes } from '@contract/routes';
import { resourcePaths, type Synthesized, synthesize } from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';

// Stack tests of the dashboard's cross-origin access to the API: by default from the stack's CloudFront
// distribution, or from the origin `dashboardOrigin` names (a custom domain in front of it). Synthesized
// without bundling, once per variant.

type Json = Record<string, unknown>;

const ORIGIN = 'https://dashboard.example.com';

let byDefault: Synthesized;
let custom: Synthesized;

beforeAll(() => {
  byDefault = synthesize();
  custom = synthesize({ context: { dashboardOrigin: ORIGIN } });
});

const resourcesOf = (synthesized: Synthesized, type: string): Json[] =>
  Object.values(synthesized.template.findResources(type)).map((resource) => (resource as Json).Properties as Json);

const preflights = (synthesized: Synthesized) =>
  resourcesOf(synthesized, 'AWS::ApiGateway::Method').filter((method) => method.HttpMethod === 'OPTIONS');

/** Headers as API Gateway's static parameters (`'value'`) under `prefix`, resolved as the template holds them. */
const quoted = (synthesized: Synthesized, prefix: string, headers: Record<string, string>) =>
  synthesized.stack.resolve(
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [`${prefix}${name}`, `'${value}'`])),
  ) as Json;

const logicalId = (synthesized: Synthesized, construct: { node: { defaultChild?: unknown } }) =>
  synthesized.stack.getLogicalId(construct.node.defaultChild as CfnResource);

describe('the dashboard origin', () => {
  it("is by default the distribution's own, https://<its domain name>", () => {
    const distributionId = logicalId(byDefault, byDefault.stack.dashboard.distribution);
    expect(byDefault.stack.resolve(byDefault.stack.dashboardOrigin)).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]],
    });
  });

  it('is the one dashboardOrigin names when a custom domain fronts the distribution', () => {
    expect(custom.stack.dashboardOrigin).toBe(ORIGIN);
  });
});

describe.each([
  ["the distribution's origin (default)", () => byDefault],
  ['a custom origin (dashboardOrigin)', () => custom],
])('with %s', (_variant, variant) => {
  const origin = () => variant().stack.dashboardOrigin;

  it('answers a preflight on every route path, without the authorizer, from a mock integration', () => {
    const synthesized = variant();
    const paths = resourcePaths(synthesized.template);
    const answered = new Map(
      preflights(synthesized).map((method) => [paths.get((method.ResourceId as { Ref: string }).Ref), method]),
    );
    expect([...answered.keys()].sort()).toEqual([...methodsByPath.keys()].sort());
    for (const [path, methods] of methodsByPath) {
      expect(answered.get(path)).toMatchObject({
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          IntegrationResponses: [
            {
              StatusCode: '204',
              ResponseParameters: quoted(synthesized, 'method.response.header.', preflightHeaders(origin(), methods)),
            },
          ],
        },
      });
    }
  });

  it('lets the dashboard read every answer of the gateway itself', () => {
    const synthesized = variant();
    const responses = resourcesOf(synthesized, 'AWS::ApiGateway::GatewayResponse');
    expect(responses).toHaveLength(gatewayResponses.length);
    for (const response of responses) {
      expect(response.ResponseParameters).toMatchObject(
        quoted(synthesized, 'gatewayresponse.header.', corsHeaders(origin())),
      );
    }
  });

  it('lets the dashboard read the API document', () => {
    const synthesized = variant();
    const documentMethod = resourcesOf(synthesized, 'AWS::ApiGateway::Method').find(
      (method) => method.HttpMethod === 'GET' && (method.Integration as Json | undefined)?.Type === 'MOCK',
    );
    expect(documentMethod?.Integration).toMatchObject({
      IntegrationResponses: [
        { ResponseParameters: quoted(synthesized, 'method.response.header.', corsHeaders(origin())) },
      ],
    });
  });

  it('tells every route function the origin, and the authorizer nothing', () => {
    const synthesized = variant();
    const { stack } = synthesized;
    const environmentOf = (fn: { lambdaFunction: { node: { defaultChild?: unknown } } }) => {
      const id = logicalId(synthesized, fn.lambdaFunction);
      const properties = (synthesized.template.findResources('AWS::Lambda::Function')[id] as Json).Properties as Json;
      return (properties.Environment as { Variables: Record<string, unknown> }).Variables;
    };
    expect(stack.serviceApi.routeFunctions.size).toBe(routes.length);
    for (const fn of stack.serviceApi.routeFunctions.values()) {
      expect(environmentOf(fn).DASHBOARD_ORIGIN).toEqual(stack.resolve(origin()));
    }
    expect(environmentOf(stack.serviceApi.authorizerFunction)).not.toHaveProperty('DASHBOARD_ORIGIN');
  });

  it('lets no other origin read an answer: every Access-Control-Allow-Origin names that one origin', () => {
    const synthesized = variant();
    const expected = JSON.stringify(synthesized.stack.resolve(`'${origin()}'`));
    const values: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          // A method response only declares the header (`true`); values are set by integrations and gateway responses.
          if (key.endsWith('.header.Access-Control-Allow-Origin')) {
            if (inner !== true) values.push(JSON.stringify(inner));
          } else collect(inner);
        }
      }
    };
    collect(synthesized.template.toJSON());
    expect(values.length).toBeGreaterThanOrEqual(gatewayResponses.length + methodsByPath.size + 1);
    expect(new Set(values)).toEqual(new Set([expected]));
  });

  it('synthesizes with no unacknowledged cdk-nag finding', () => {
    expect(variant().findings).toEqual([]);
  });
});
