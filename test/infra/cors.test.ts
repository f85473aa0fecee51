import { corsHeaders, preflightHeaders } from '@contract/cors';
import { gatewayResponses } from '@contract/gateway-responses';
import { methodsByPath } from '@contract/route-table';
import { resourcePaths, type Synthesized, synthesize } from '@test/infra/synth';
import type { CfnResource } from 'aws-cdk-lib';

// Stack tests of cross-origin access for a dashboard on another origin (`dashboardOrigin`).
// Synthesized without bundling, with and without the key.

type Json = Record<string, unknown>;

const ORIGIN = 'https://dashboard.example.com';

let plain: Synthesized;
let cors: Synthesized;

beforeAll(() => {
  plain = synthesize();
  cors = synthesize({ context: { dashboardOrigin: ORIGIN } });
});

const resourcesOf = (synthesized: Synthesized, type: string): Json[] =>
  Object.values(synthesized.template.findResources(type)).map((resource) => (resource as Json).Properties as Json);

const preflights = (synthesized: Synthesized) =>
  resourcesOf(synthesized, 'AWS::ApiGateway::Method').filter((method) => method.HttpMethod === 'OPTIONS');

const quoted = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]));

describe('with a dashboard origin', () => {
  it('answers a preflight on every route path, without the authorizer, from a mock integration', () => {
    const paths = resourcePaths(cors.template);
    const answered = new Map(
      preflights(cors).map((method) => [paths.get((method.ResourceId as { Ref: string }).Ref), method]),
    );
    expect([...answered.keys()].sort()).toEqual([...methodsByPath.keys()].sort());
    for (const [path, methods] of methodsByPath) {
      expect(answered.get(path)).toMatchObject({
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          IntegrationResponses: [{ StatusCode: '204', ResponseParameters: quoted(preflightHeaders(ORIGIN, methods)) }],
        },
      });
    }
  });

  it('lets the dashboard read every answer of the gateway itself', () => {
    const responses = resourcesOf(cors, 'AWS::ApiGateway::GatewayResponse');
    expect(responses).toHaveLength(gatewayResponses.length);
    for (const response of responses) {
      expect(response.ResponseParameters).toMatchObject(
        Object.fromEntries(
          Object.entries(corsHeaders(ORIGIN)).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`]),
        ),
      );
    }
  });

  it('lets the dashboard read the API document', () => {
    const documentMethod = resourcesOf(cors, 'AWS::ApiGateway::Method').find(
      (method) => method.HttpMethod === 'GET' && (method.Integration as Json | undefined)?.Type === 'MOCK',
    );
    expect(documentMethod?.Integration).toMatchObject({
      IntegrationResponses: [{ ResponseParameters: quoted(corsHeaders(ORIGIN)) }],
    });
  });

  it('tells every route function the origin, and the authorizer nothing', () => {
    const { stack } = cors;
    const environmentOf = (fn: { lambdaFunction: { node: { defaultChild?: unknown } } }) => {
      const id = stack.getLogicalId(fn.lambdaFunction.node.defaultChild as CfnResource);
      const properties = (cors.template.findResources('AWS::Lambda::Function')[id] as Json).Properties as Json;
      return (properties.Environment as { Variables: Record<string, unknown> }).Variables;
    };
    for (const fn of stack.serviceApi.routeFunctions.values()) {
      expect(environmentOf(fn).DASHBOARD_ORIGIN).toBe(ORIGIN);
    }
    expect(environmentOf(stack.serviceApi.authorizerFunction)).not.toHaveProperty('DASHBOARD_ORIGIN');
  });

  it('synthesizes with no unacknowledged cdk-nag finding', () => {
    expect(cors.findings).toEqual([]);
  });
});

describe('without a dashboard origin', () => {
  it('answers no preflight and adds no cross-origin header anywhere', () => {
    expect(preflights(plain)).toEqual([]);
    expect(JSON.stringify(plain.template.toJSON())).not.toContain('Access-Control-');
  });
});
