import { corsHeaders, preflightHeaders } from '@contract/cors';
import { gatewayResponses } from '@contract/gateway-responses';
import { JSON_HEADERS } from '@contract/headers';
import type { RouteContract } from '@contract/route';
import { methodsByPath, routeRulesJson } from '@contract/route-table';
import { routes } from '@contract/routes';
import { authorizerTableAccess } from '@contract/table-access';
import { API_DOCUMENT_PATH, apiDocumentBody } from '@lib/api-document';
import type { ServiceConfig } from '@lib/config';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  AwsIntegration,
  type CfnRestApi,
  EndpointAccessMode,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { domainOf, pascalCase, type RouteDomain, RouteStack } from './route-stack';
import { ServiceFunction, serviceEnvironment } from './service-function';
import { grantTableAccess } from './table-access';

/** The session issuer the authorizer trusts, as resolved values (tokens allowed). */
export interface SessionIssuerSettings {
  /** Expected `iss`. */
  readonly issuer: string;
  /** Expected `aud`. */
  readonly audience: string;
  /** JWKS URL; omitted, the authorizer finds it through the issuer's OpenID discovery document. */
  readonly jwksUrl?: string;
}

/** Properties of the {@link ServiceApi}. */
export interface ServiceApiProps {
  /** The validated app configuration. */
  readonly config: ServiceConfig;
  /** The service's table. */
  readonly table: ITable;
  /**
   * The key that wraps the projects' data keys: the functions of routes whose contract states a
   * `keyUse` get its ARN as `SECRETS_KEY_ID` and exactly those calls on it; no other function sees it.
   */
  readonly secretsKey: IKey;
  /** Whom the authorizer trusts for session JWTs. */
  readonly session: SessionIssuerSettings;
  /**
   * The web dashboard's origin (deploy-time value allowed): the one origin whose preflights the API
   * answers and that may read its answers.
   */
  readonly dashboardOrigin: string;
  /**
   * Where the authorizer's function, its role and log group go: a nested stack, so that they do not count
   * against the root template. The authorizer itself, and the permission that lets it invoke the
   * function, stay beside the API.
   */
  readonly authorizerFunctionScope: Construct;
}

export { routeEntry } from './route-stack';

/** Entry file of the authorizer. */
export const AUTHORIZER_ENTRY = 'lambdas/authorizer/handler.ts';

/** API Gateway takes static header values as quoted literals. */
const quotedHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (value.includes("'")) throw new Error(`Gateway response header ${name} must not contain a single quote`);
      return [name, `'${value}'`];
    }),
  );

/**
 * The stateless half: the REST API, one function per route of the route table, the REQUEST
 * authorizer in front of every method, the gateway's own error answers, and the stage with access
 * logs, tracing, metrics and throttling.
 */
export class ServiceApi extends Construct {
  /** The REST API. */
  readonly api: RestApi;
  /** The authorizer's function. */
  readonly authorizerFunction: ServiceFunction;
  /** The function of each route, keyed by its handler name. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  /** The nested stack of each route domain, which holds its routes' functions. */
  readonly routeStacks: ReadonlyMap<RouteDomain, RouteStack>;
  /** The stage's access log group. */
  readonly accessLogs: LogGroup;
  /** `GET /api/v1/openapi.json`: the API document, unauthenticated, from a mock integration. */
  readonly apiDocumentMethod: Method;
  /** `OPTIONS` of every route path: the dashboard's CORS preflights. */
  readonly preflightMethods: readonly Method[];

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const { config, table, secretsKey, session, dashboardOrigin } = props;
    const baseEnvironment = serviceEnvironment({
      table,
      logLevel: config.logLevel,
      auditRetentionDays: config.auditRetentionDays,
    });

    this.authorizerFunction = new ServiceFunction(
      new Construct(props.authorizerFunctionScope, id),
      'AuthorizerFunction',
      {
        entry: AUTHORIZER_ENTRY,
        description: 'REQUEST authorizer: judges the API token or session of every request',
        logRetention: config.logRetention,
        environment: {
          ...baseEnvironment,
          SESSION_ISSUER: session.issuer,
          SESSION_AUDIENCE: session.audience,
          ROUTE_RULES: routeRulesJson(),
          ...(session.jwksUrl !== undefined && { SESSION_JWKS_URL: session.jwksUrl }),
        },
      },
    );
    grantTableAccess(this.authorizerFunction.role, table, authorizerTableAccess);

    // The authorizer takes the function by its ARN, so that the permission it adds (API Gateway may invoke
    // the function for this authorizer) is made here, in the API's template: made beside the function, it
    // would name the authorizer, which names the function, and the two templates would depend on each other.
    const authorizerHandler = LambdaFunction.fromFunctionAttributes(this, 'AuthorizerHandler', {
      functionArn: this.authorizerFunction.lambdaFunction.functionArn,
      sameEnvironment: true,
    });
    const authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: authorizerHandler,
      // The source IP is part of the identity so that a cached decision could never serve another
      // address; the TTL of 0 disables caching, so a revoked or expired token fails at once and
      // one route's policy never answers another route.
      identitySources: [IdentitySource.header('Authorization'), IdentitySource.context('identity.sourceIp')],
      resultsCacheTtl: Duration.seconds(0),
    });

    // Retained (the LogGroup default): who called what outlives a stack delete, until retention expires it.
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention });

    this.api = new RestApi(this, 'Api', {
      // API Gateway's metrics are keyed by this name (the ApiName dimension), so it must not be a generic one.
      restApiName: Stack.of(this).stackName,
      description: 'Secrets Service: API tokens, sessions and project members',
      // Regional: clients and the optional WAF web ACL attach to the API directly, with no CloudFront in between.
      endpointTypes: [EndpointType.REGIONAL],
      failOnWarnings: true,
      // Access and execution logging need the account's API Gateway CloudWatch role.
      cloudWatchRole: config.apiGatewayCloudWatchRole,
      deployOptions: {
        stageName: config.stageName,
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: config.throttlingRateLimit,
        throttlingBurstLimit: config.throttlingBurstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        // Data tracing would log request headers and bodies, i.e. credentials and raw tokens.
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          // Every value quoted: API Gateway writes `-` for a missing one, which would break bare JSON numbers.
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            requestTime: AccessLogField.contextRequestTime(),
            sourceIp: AccessLogField.contextIdentitySourceIp(),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            authorizeStatus: AccessLogField.contextAuthorizeStatus(),
            authorizerStatus: AccessLogField.contextAuthorizerStatus(),
            authorizerLatency: AccessLogField.contextAuthorizerLatency(),
            authorizerIntegrationLatency: AccessLogField.contextAuthorizerIntegrationLatency(),
            principalId: AccessLogField.contextAuthorizerPrincipalId(),
            errorType: AccessLogField.contextErrorResponseType(),
            errorMessage: AccessLogField.contextErrorMessage(),
            wafResponseCode: AccessLogField.contextWafResponseCode(),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
      },
    });

    // RestApi adds an unnamed `Endpoint` output; the stack names its own `ApiUrl` instead of listing the URL twice.
    this.api.node.tryRemoveChild('Endpoint');

    // The L2 RestApi has no security policy prop, and a Regional API's default (TLS_1_0) still accepts
    // TLS 1.0. This enhanced policy accepts TLS 1.3 and 1.2 only, with forward-secret TLS 1.2 ciphers (API
    // Gateway Developer Guide, "Supported security policies"; aws-cdk-lib's SecurityPolicy enum). An
    // enhanced policy requires an endpoint access mode ("Security policies for REST APIs", "Endpoint access
    // mode"): STRICT, the recommended one, also rejects requests whose SNI does not match the API's host.
    const cfnApi = this.api.node.defaultChild as CfnRestApi;
    cfnApi.securityPolicy = SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09;
    cfnApi.endpointAccessMode = EndpointAccessMode.STRICT;

    for (const response of gatewayResponses) {
      this.api.addGatewayResponse(pascalCase(response.type.toLowerCase()), {
        type: ResponseType.of(response.type),
        statusCode: response.statusCode?.toString(),
        templates: { 'application/json': response.template },
        responseHeaders: quotedHeaders({ ...response.headers, ...corsHeaders(dashboardOrigin) }),
      });
    }

    const routesByDomain = new Map<RouteDomain, RouteContract[]>();
    for (const route of routes)
      routesByDomain.set(domainOf(route), [...(routesByDomain.get(domainOf(route)) ?? []), route]);
    const routeStacks = new Map<RouteDomain, RouteStack>();
    for (const [domain, domainRoutes] of routesByDomain) {
      const routeStack = new RouteStack(this, `${domain}Routes`, {
        routes: domainRoutes,
        api: this.api,
        stageName: config.stageName,
        table,
        secretsKey,
        environment: { ...baseEnvironment, DASHBOARD_ORIGIN: dashboardOrigin },
        logRetention: config.logRetention,
      });
      routeStacks.set(domain, routeStack);
    }
    // The methods stay here, in the API's own stack, where their logical IDs have always been. The
    // integration is LambdaIntegration's without its permission, which each route stack grants itself.
    const routeFunctions = new Map<string, ServiceFunction>();
    for (const route of routes) {
      const fn = routeStacks.get(domainOf(route))?.functions.get(route.handler);
      if (!fn) throw new Error(`No function for ${route.handler}`);
      routeFunctions.set(route.handler, fn);
      const method = this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        new AwsIntegration({
          proxy: true,
          service: 'lambda',
          path: `2015-03-31/functions/${fn.lambdaFunction.functionArn}/invocations`,
        }),
        // A sign-in is how a credential is got: no credential reaches it, the route judges its proof.
        route.signIn
          ? { authorizationType: AuthorizationType.NONE }
          : { authorizer, authorizationType: AuthorizationType.CUSTOM },
      );
      if (route.signIn) {
        const reason =
          'A sign-in as a service account is how a workload without a stored secret gets a credential: it carries a proof (an OIDC token of its platform, or a signed sts:GetCallerIdentity) that the route verifies against the service account’s trust rules, answering one 401 for every refusal; the web ACL and the stage throttle it like every method.';
        Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
      }
    }
    this.routeStacks = routeStacks;
    this.routeFunctions = routeFunctions;

    this.apiDocumentMethod = this.addApiDocument(dashboardOrigin);
    this.preflightMethods = this.addPreflights(dashboardOrigin);

    this.acknowledgeFindings(config.waf);
  }

  /**
   * Serves the generated OpenAPI document with no Lambda: a mock integration whose integration
   * response template is the document (written without `$` and `#`, which VTL would interpret).
   */
  private addApiDocument(dashboardOrigin: string): Method {
    // The dashboard is served at the root of its origin (the distribution's, or `dashboardOrigin`).
    return this.addStaticMethod(
      API_DOCUMENT_PATH,
      'GET',
      {
        statusCode: 200,
        headers: { ...JSON_HEADERS, ...corsHeaders(dashboardOrigin) },
        body: apiDocumentBody(`${dashboardOrigin}/`),
      },
      'The API document is public by design (like any published API reference): a static body from a mock integration, with no data, no Lambda and no table behind it; every other method uses the REQUEST authorizer.',
    );
  }

  /**
   * Answers the dashboard's CORS preflights: an `OPTIONS` method on every route path, from a mock
   * integration with no authorizer, since browsers send preflights without credentials.
   */
  private addPreflights(origin: string): Method[] {
    return [...methodsByPath].map(([path, methods]) =>
      this.addStaticMethod(
        path,
        'OPTIONS',
        { statusCode: 204, headers: preflightHeaders(origin, methods) },
        'A CORS preflight: browsers send it without credentials, so it cannot be authorized; it answers fixed headers from a mock integration, with no data, no Lambda and no table behind it.',
      ),
    );
  }

  /**
   * A public method that API Gateway answers itself, from a mock integration with no authorizer:
   * a fixed status, fixed headers and an optional fixed body. `reason` says why it needs no credential.
   */
  private addStaticMethod(
    path: string,
    httpMethod: string,
    answer: { statusCode: number; headers: Record<string, string>; body?: string },
    reason: string,
  ): Method {
    const statusCode = String(answer.statusCode);
    const headers = Object.entries(quotedHeaders(answer.headers));
    const parameters = <T>(value: (quoted: string) => T) =>
      Object.fromEntries(headers.map(([name, quoted]) => [`method.response.header.${name}`, value(quoted)]));
    const method = this.api.root.resourceForPath(path).addMethod(
      httpMethod,
      new MockIntegration({
        passthroughBehavior: PassthroughBehavior.NEVER,
        requestTemplates: { 'application/json': `{"statusCode": ${statusCode}}` },
        integrationResponses: [
          {
            statusCode,
            ...(answer.body !== undefined && { responseTemplates: { 'application/json': answer.body } }),
            responseParameters: parameters((quoted) => quoted),
          },
        ],
      }),
      {
        authorizationType: AuthorizationType.NONE,
        methodResponses: [{ statusCode, responseParameters: parameters(() => true) }],
      },
    );
    // AwsSolutions-COG4 is also acknowledged API-wide (below), for a reason that holds only for the
    // methods behind the authorizer.
    Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
    return method;
  }

  /** The AwsSolutions findings this API accepts, each with its reason. */
  private acknowledgeFindings(waf: boolean): void {
    if (!waf) {
      // By default the stack associates a web ACL with the stage (WebAcl) and the rule passes.
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'The web ACL was turned off on purpose (`-c waf=false`), which also drops the per-credential limit; the stage still throttles every caller and the authorizer refuses bad credentials before any route runs.',
      });
    }
    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Requests are validated in each Lambda against its route contract\'s zod schema, which gives the contract\'s "Validation failed" body with details; an API Gateway validator would answer with its own body first.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Every method but the public API document, the CORS preflights and the service accounts’ sign-ins uses the Lambda REQUEST authorizer, which verifies both API tokens and Cognito/OIDC session JWTs; a Cognito authorizer cannot check API tokens.',
      },
    );
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]`,
        reason:
          "API Gateway's account-wide logging role; AWS's managed policy is the documented one and covers every API's log groups in the account.",
      });
    }
  }
}
