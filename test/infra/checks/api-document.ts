import { gatewayResponse } from '@contract/gateway-responses';
import { routes } from '@contract/routes';
import { API_DOCUMENT_PATH, apiDocument, apiDocumentBody } from '@lib/api-document';
import { type Synthesized, synthesize } from '@test/infra/synth';

// biome-ignore lint/suspicious/noExplicitAny: tests walk the generated JSON document and template
type Json = Record<string, any>;

let synthesized: Synthesized;

beforeAll(() => {
  synthesized = synthesize();
});

const resourcesOf = (type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;

/** Full path of an AWS::ApiGateway::Resource, from its PathPart and ParentId chain. */
const pathOf = (id: string): string => {
  const properties = resourcesOf('AWS::ApiGateway::Resource')[id]?.Properties;
  if (!properties) return '';
  return `${pathOf(properties.ParentId.Ref)}/${properties.PathPart}`;
};

describe('GET /api/v1/openapi.json in the stack', () => {
  // The dashboard's CORS preflights are public too (checks/cors.ts), and the service accounts' sign-ins
  // (service-stack.test.ts); this is the one other.
  const signIns = new Set(routes.filter((route) => route.signIn).map((route) => route.path));
  const publicMethods = () =>
    Object.entries(resourcesOf('AWS::ApiGateway::Method')).filter(
      ([, method]) =>
        method.Properties.AuthorizationType !== 'CUSTOM' &&
        method.Properties.HttpMethod !== 'OPTIONS' &&
        !signIns.has(pathOf(method.Properties.ResourceId.Ref)),
    );

  it('is the one method without the authorizer besides the CORS preflights and the sign-ins: a mock integration, no Lambda', () => {
    const methods = publicMethods();
    expect(methods).toHaveLength(1);
    const [, method] = methods[0] as [string, Json];
    expect(method.Properties).toMatchObject({
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: { Type: 'MOCK', RequestTemplates: { 'application/json': '{"statusCode": 200}' } },
    });
    expect(pathOf(method.Properties.ResourceId.Ref)).toBe(API_DOCUMENT_PATH);
  });

  it('answers 200 with exactly the generated document as its template', () => {
    const [, method] = publicMethods()[0] as [string, Json];
    const [response] = method.Properties.Integration.IntegrationResponses;
    expect(response.StatusCode).toBe('200');
    // The document, with the distribution's URL as where the dashboard is, resolved by CloudFormation.
    const [separator, parts] = response.ResponseTemplates['application/json']['Fn::Join'];
    expect(separator).toBe('');
    const [before, domain, after] = parts as [string, Json, string];
    expect(domain['Fn::GetAtt'][1]).toBe('DomainName');
    const template = `${before}d111111abcdef8.cloudfront.net${after}`;
    expect(template).toBe(apiDocumentBody('https://d111111abcdef8.cloudfront.net/'));
    // VTL would interpret `$` and `#`; the document writes them as JSON escapes.
    expect(template).not.toMatch(/[$#]/);
    expect(JSON.parse(template)).toEqual({
      ...apiDocument(),
      'x-dashboard-url': 'https://d111111abcdef8.cloudfront.net/',
    });
    expect(method.Properties.MethodResponses).toEqual([
      {
        StatusCode: '200',
        ResponseParameters: {
          'method.response.header.Content-Type': true,
          'method.response.header.Cache-Control': true,
          // The dashboard reads it across origins.
          'method.response.header.Access-Control-Allow-Origin': true,
          'method.response.header.Access-Control-Expose-Headers': true,
        },
      },
    ]);
  });

  it('keeps every other path and method a 404 `Not found`', () => {
    synthesized.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': gatewayResponse('MISSING_AUTHENTICATION_TOKEN').template },
    });
  });

  it('passes cdk-nag, with the public method acknowledged for its reason', () => {
    expect(synthesized.findings).toEqual([]);
    const onMethod = synthesized.acknowledgements.filter((ack) => ack.constructPath.includes('openapi.json'));
    expect(onMethod.map((ack) => ack.id).sort()).toEqual(['AwsSolutions-APIG4', 'AwsSolutions-COG4']);
    for (const ack of onMethod) expect(ack.reason).toMatch(/public by design/);
  });
});
