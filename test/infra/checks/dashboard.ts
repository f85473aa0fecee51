import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHARE_PATH_PREFIX } from '@client/share-link';
import {
  DASHBOARD_CONFIG_PATH,
  type DashboardConfig,
  dashboardContentSecurityPolicy,
  dashboardSecurityHeaders,
} from '@contract/dashboard';
import { defaultDomainPrefix } from '@lib/constructs/user-directory';
import { type Synthesized, synthesize } from '@test/infra/synth';
import { App, type CfnResource, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// Stack tests of the web dashboard: its bucket, the CloudFront distribution and its headers, Cognito's
// sign-in domain, and the config.json the deployment writes. Synthesized without bundling (the build
// itself is checked in service-stack.test.ts, which bundles), once per variant.

type Json = Record<string, unknown>;

const EXTERNAL_ISSUER = 'https://idp.example.com/realms/acme';
const EXTERNAL_AUDIENCE = 'dashboard-client';
const CUSTOM_ORIGIN = 'https://dashboard.example.com';

let cognito: Synthesized;
let external: Synthesized;
let customOrigin: Synthesized;

beforeAll(() => {
  cognito = synthesize();
  external = synthesize({ context: { sessionIssuer: EXTERNAL_ISSUER, sessionAudience: EXTERNAL_AUDIENCE } });
  customOrigin = synthesize({ context: { dashboardOrigin: CUSTOM_ORIGIN, cognitoDomainPrefix: 'secrets-acme' } });
});

const logicalId = (synthesized: Synthesized, construct: IConstruct): string =>
  synthesized.stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnResource);
const resourcesOf = (synthesized: Synthesized, type: string): Record<string, Json> =>
  synthesized.template.findResources(type) as Record<string, Json>;
const onlyResource = (synthesized: Synthesized, type: string): Json => {
  const all = Object.values(resourcesOf(synthesized, type));
  expect(all).toHaveLength(1);
  return all[0] as Json;
};
const propertiesOf = (resource: Json): Json => resource.Properties as Json;

const users = (synthesized: Synthesized) => {
  const directory = synthesized.stack.users;
  if (!directory) throw new Error('expected the stack’s own user pool');
  return directory;
};

/**
 * Deploy-time values spelled as readable stand-ins, so that a CloudFormation value can be compared as one
 * string: the REST API id `restapi`, the stage `prod-stage`, the pool `pool`, the app client `client`, the
 * sign-in domain prefix `prefix`, the distribution `d111.cloudfront.net`, the region `region` and the URL
 * suffix `amazonaws.com`.
 */
const standIns = (synthesized: Synthesized): Map<string, string> => {
  const { stack } = synthesized;
  const entries: [unknown, string][] = [
    [{ Ref: 'AWS::Region' }, 'region'],
    [{ Ref: 'AWS::URLSuffix' }, 'amazonaws.com'],
    [{ Ref: logicalId(synthesized, stack.serviceApi.api) }, 'restapi'],
    [{ Ref: logicalId(synthesized, stack.serviceApi.api.deploymentStage) }, 'prod-stage'],
    [{ 'Fn::GetAtt': [logicalId(synthesized, stack.dashboard.distribution), 'DomainName'] }, 'd111.cloudfront.net'],
  ];
  const directory = stack.users;
  if (directory) {
    entries.push(
      [{ Ref: logicalId(synthesized, directory) }, 'pool'],
      [{ Ref: logicalId(synthesized, directory.client) }, 'client'],
      [{ Ref: logicalId(synthesized, directory.domain) }, 'prefix'],
    );
  }
  return new Map(entries.map(([value, name]) => [JSON.stringify(value), name]));
};

/** A CloudFormation string value (literal or Fn::Join) as one string, each deploy-time value by its stand-in. */
const render = (synthesized: Synthesized, value: unknown): string => {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) return join[1].map((part) => render(synthesized, part)).join(join[0]);
  const name = standIns(synthesized).get(JSON.stringify(value));
  if (name === undefined) throw new Error(`No stand-in for ${JSON.stringify(value)}`);
  return name;
};

/** The config.json the deployment writes, with its deploy-time values by their stand-ins. */
const deployedConfig = (synthesized: Synthesized): { key: string; config: DashboardConfig } => {
  const deployment = propertiesOf(onlyResource(synthesized, 'Custom::CDKBucketDeployment'));
  const keys = deployment.SourceObjectKeys as string[];
  const markers = (deployment.SourceMarkers ?? []) as Record<string, unknown>[];
  const found = keys.flatMap((zipKey, index) => {
    const folder = path.join(synthesized.assemblyDirectory, `asset.${zipKey.replace(/\.zip$/, '')}`);
    if (!fs.existsSync(folder)) return [];
    return fs
      .readdirSync(folder)
      .map((file) => ({ file, text: fs.readFileSync(path.join(folder, file), 'utf8'), markers: markers[index] ?? {} }));
  });
  expect(found.map(({ file }) => file)).toEqual([DASHBOARD_CONFIG_PATH.slice(1)]);
  const [{ file, text, markers: own }] = found as [(typeof found)[number]];
  const resolved = Object.entries(own).reduce(
    (json, [marker, value]) => json.split(marker).join(render(synthesized, value)),
    text,
  );
  return { key: `/${file}`, config: JSON.parse(resolved) as DashboardConfig };
};

const distributionConfig = (synthesized: Synthesized): Json =>
  propertiesOf(onlyResource(synthesized, 'AWS::CloudFront::Distribution')).DistributionConfig as Json;
const securityHeaders = (synthesized: Synthesized): Json =>
  (
    propertiesOf(onlyResource(synthesized, 'AWS::CloudFront::ResponseHeadersPolicy'))
      .ResponseHeadersPolicyConfig as Json
  ).SecurityHeadersConfig as Json;
const contentSecurityPolicy = (synthesized: Synthesized): string =>
  render(synthesized, (securityHeaders(synthesized).ContentSecurityPolicy as Json).ContentSecurityPolicy);

describe('dashboard bucket', () => {
  it('is private: every public access blocked, encrypted, objects owned by the bucket owner', () => {
    const bucket = propertiesOf(
      resourcesOf(cognito, 'AWS::S3::Bucket')[logicalId(cognito, cognito.stack.dashboard.bucket)] as Json,
    );
    expect(bucket).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(bucket).not.toHaveProperty('WebsiteConfiguration');
  });

  it('refuses plain HTTP and lets CloudFront read objects for this distribution only', () => {
    const bucketId = logicalId(cognito, cognito.stack.dashboard.bucket);
    const policy = Object.values(resourcesOf(cognito, 'AWS::S3::BucketPolicy'))
      .map(propertiesOf)
      .find((properties) => JSON.stringify(properties.Bucket) === JSON.stringify({ Ref: bucketId }));
    if (!policy) throw new Error('The dashboard bucket has no bucket policy');
    const statements = (policy.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const cloudFront = statements.filter((statement) => JSON.stringify(statement.Principal).includes('cloudfront'));
    expect(cloudFront).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
        Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
      },
    ]);
    const [allowCloudFront] = cloudFront as [Json];
    const sourceArn = (allowCloudFront.Condition as { StringEquals: Json }).StringEquals['AWS:SourceArn'];
    expect(JSON.stringify(sourceArn)).toContain(
      JSON.stringify({ Ref: logicalId(cognito, cognito.stack.dashboard.distribution) }),
    );
    // Nobody else is allowed anything but the stack's own deploy-time helper that empties it on delete.
    const others = statements.filter((statement) => statement.Effect === 'Allow' && statement !== allowCloudFront);
    expect(others.map((statement) => JSON.stringify(statement.Principal))).toEqual([
      expect.stringContaining('CustomS3AutoDeleteObjectsCustomResourceProviderRole'),
    ]);
  });

  it('logs access to a retained bucket that keeps the logs for logRetentionDays', () => {
    const { dashboard } = cognito.stack;
    const bucket = propertiesOf(resourcesOf(cognito, 'AWS::S3::Bucket')[logicalId(cognito, dashboard.bucket)] as Json);
    expect(bucket.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logicalId(cognito, dashboard.accessLogsBucket) },
      LogFilePrefix: 'dashboard-files/',
    });
    const logs = resourcesOf(cognito, 'AWS::S3::Bucket')[logicalId(cognito, dashboard.accessLogsBucket)] as Json;
    expect(logs).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        LifecycleConfiguration: { Rules: [{ ExpirationInDays: 30, Status: 'Enabled' }] },
        PublicAccessBlockConfiguration: expect.objectContaining({
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        }),
        BucketEncryption: expect.anything(),
      },
    });
  });

  it('goes with the stack, emptied first: it holds only what every deploy writes anew', () => {
    const bucketId = logicalId(cognito, cognito.stack.dashboard.bucket);
    expect(resourcesOf(cognito, 'AWS::S3::Bucket')[bucketId]).toMatchObject({ DeletionPolicy: 'Delete' });
    expect(propertiesOf(onlyResource(cognito, 'Custom::S3AutoDeleteObjects')).BucketName).toEqual({ Ref: bucketId });
  });
});

describe('distribution', () => {
  it('serves the bucket through origin access control, HTTPS only, with index.html at the root', () => {
    const config = distributionConfig(cognito);
    const oac = Object.entries(resourcesOf(cognito, 'AWS::CloudFront::OriginAccessControl'));
    expect(oac).toHaveLength(1);
    const [oacId, oacResource] = oac[0] as [string, Json];
    expect(propertiesOf(oacResource).OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(config.Origins).toEqual([
      expect.objectContaining({
        DomainName: { 'Fn::GetAtt': [logicalId(cognito, cognito.stack.dashboard.bucket), 'RegionalDomainName'] },
        OriginAccessControlId: { 'Fn::GetAtt': [oacId, 'Id'] },
        S3OriginConfig: { OriginAccessIdentity: '' },
      }),
    ]);
    expect(config).toMatchObject({
      Enabled: true,
      DefaultRootObject: 'index.html',
      DefaultCacheBehavior: expect.objectContaining({
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD'],
        ResponseHeadersPolicyId: {
          Ref: logicalId(cognito, cognito.stack.dashboard.responseHeadersPolicy),
        },
      }),
    });
  });

  it('serves a share’s link page, /s/<id>, as index.html, through the same origin, headers and caching', () => {
    const config = distributionConfig(cognito);
    const functions = Object.entries(resourcesOf(cognito, 'AWS::CloudFront::Function'));
    expect(functions).toHaveLength(1);
    const [functionId, shareLinkPage] = functions[0] as [string, Json];
    const { FunctionAssociations, PathPattern, ...behavior } = (config.CacheBehaviors as Json[])[0] as Json;
    expect(config.CacheBehaviors).toHaveLength(1);
    expect(PathPattern).toBe(`${SHARE_PATH_PREFIX}*`);
    expect(FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    expect(behavior).toEqual(config.DefaultCacheBehavior);

    // The function as CloudFront runs it: every /s/ path is the page, whatever its id.
    const { FunctionCode, FunctionConfig } = propertiesOf(shareLinkPage) as {
      FunctionCode: string;
      FunctionConfig: Json;
    };
    expect(FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const handler = new Function(`${FunctionCode}; return handler;`)() as (event: Json) => { uri: string };
    for (const uri of ['/s/shr_0123456789abcdefghijkl', '/s/anything']) {
      expect(handler({ request: { method: 'GET', uri, querystring: {}, headers: {} } })).toMatchObject({
        uri: '/index.html',
      });
    }
  });

  it('keeps a missing file a missing file: no error page maps every path to the app', () => {
    expect(distributionConfig(cognito)).not.toHaveProperty('CustomErrorResponses');
  });

  it('serves no other origin: the API stays on API Gateway, which must see the caller’s own address', () => {
    const origins = distributionConfig(cognito).Origins as Json[];
    expect(origins).toHaveLength(1);
    expect(JSON.stringify(origins)).not.toContain('execute-api');
    expect(JSON.stringify(origins)).not.toContain(logicalId(cognito, cognito.stack.serviceApi.api));
  });

  it('sends the security headers of contract/dashboard.ts, overriding any the origin sends', () => {
    const headers = securityHeaders(cognito) as Record<string, Json>;
    const hsts = headers.StrictTransportSecurity as Json;
    expect({
      'Strict-Transport-Security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      'X-Content-Type-Options': headers.ContentTypeOptions ? 'nosniff' : undefined,
      'X-Frame-Options': headers.FrameOptions?.FrameOption,
      'Referrer-Policy': headers.ReferrerPolicy?.ReferrerPolicy,
    }).toEqual(dashboardSecurityHeaders);
    for (const header of Object.values(headers)) expect(header.Override).toBe(true);
  });

  it('allows the pages to connect to exactly the API, the Cognito issuer and the sign-in domain', () => {
    expect(contentSecurityPolicy(cognito)).toBe(
      dashboardContentSecurityPolicy([
        'https://restapi.execute-api.region.amazonaws.com',
        'https://cognito-idp.region.amazonaws.com/pool',
        'https://prefix.auth.region.amazoncognito.com',
      ]),
    );
  });

  it('allows exactly the API and the external issuer when sessions come from one', () => {
    expect(contentSecurityPolicy(external)).toBe(
      dashboardContentSecurityPolicy(['https://restapi.execute-api.region.amazonaws.com', EXTERNAL_ISSUER]),
    );
  });

  it('names the API by its REST API id, not its stage URL, so no cycle runs back through the functions', () => {
    const policy = JSON.stringify((securityHeaders(cognito).ContentSecurityPolicy as Json).ContentSecurityPolicy);
    expect(policy).toContain(JSON.stringify({ Ref: logicalId(cognito, cognito.stack.serviceApi.api) }));
    expect(policy).not.toContain(logicalId(cognito, cognito.stack.serviceApi.api.deploymentStage));
  });
});

describe('deployment', () => {
  it('writes config.json next to the build: the API URL, the Cognito issuer and app client, and the sign-out URL', () => {
    const { key, config } = deployedConfig(cognito);
    expect(key).toBe(DASHBOARD_CONFIG_PATH);
    expect(config).toEqual({
      apiUrl: 'https://restapi.execute-api.region.amazonaws.com/prod-stage/',
      issuer: 'https://cognito-idp.region.amazonaws.com/pool',
      clientId: 'client',
      signOutUrl:
        'https://prefix.auth.region.amazoncognito.com/logout?client_id=client&logout_uri=https%3A%2F%2Fd111.cloudfront.net%2F',
    });
  });

  it('signs out back to a URL the app client allows: the dashboard’s', () => {
    const { config } = deployedConfig(cognito);
    const client = propertiesOf(onlyResource(cognito, 'AWS::Cognito::UserPoolClient'));
    const logoutUri = new URL(config.signOutUrl ?? '').searchParams.get('logout_uri');
    expect(logoutUri).toBe('https://d111.cloudfront.net/');
    expect((client.LogoutURLs as unknown[]).map((url) => render(cognito, url))).toEqual([logoutUri]);
  });

  it('writes the external issuer and audience into config.json, and no sign-out URL', () => {
    expect(deployedConfig(external).config).toEqual({
      apiUrl: 'https://restapi.execute-api.region.amazonaws.com/prod-stage/',
      issuer: EXTERNAL_ISSUER,
      clientId: EXTERNAL_AUDIENCE,
    });
  });

  it('replaces the bucket’s files, lets browsers revalidate each, and invalidates the distribution', () => {
    const deployment = propertiesOf(onlyResource(cognito, 'Custom::CDKBucketDeployment'));
    expect(deployment).toMatchObject({
      DestinationBucketName: { Ref: logicalId(cognito, cognito.stack.dashboard.bucket) },
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionId: { Ref: logicalId(cognito, cognito.stack.dashboard.distribution) },
      DistributionPaths: ['/*'],
    });
    expect(deployment).not.toHaveProperty('DestinationBucketKeyPrefix');
  });

  it('gives the deployment function its own log group and no access beyond the two buckets and invalidations', () => {
    // The deployment, its role and log group live in DashboardDeploymentStack, under a scope of the dashboard's id.
    const deploymentScope = cognito.stack.dashboard.deployment?.node.scope;
    if (!deploymentScope) throw new Error('The dashboard was never published');
    expect(Stack.of(deploymentScope).node.id).toBe('DashboardDeploymentStack');
    const roleId = logicalId(cognito, deploymentScope.node.findChild('DeploymentRole'));
    const role = propertiesOf(resourcesOf(cognito, 'AWS::IAM::Role')[roleId] as Json);
    expect(role.ManagedPolicyArns).toBeUndefined();
    const statements = Object.values(resourcesOf(cognito, 'AWS::IAM::Policy'))
      .map(propertiesOf)
      .filter((policy) => JSON.stringify(policy.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((policy) => (policy.PolicyDocument as { Statement: Json[] }).Statement);
    const filesArn = { 'Fn::GetAtt': [logicalId(cognito, cognito.stack.dashboard.bucket), 'Arn'] };
    const logsId = logicalId(cognito, deploymentScope.node.findChild('DeploymentLogs'));
    const resources = statements.flatMap((statement) =>
      (Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource]).map((resource) => ({
        actions: statement.Action,
        resource: JSON.stringify(resource),
      })),
    );
    for (const { actions, resource } of resources) {
      const allowed =
        resource === JSON.stringify(filesArn) ||
        resource === JSON.stringify({ 'Fn::Join': ['', [filesArn, '/*']] }) ||
        resource.includes('cdk-hnb659fds-assets-') ||
        resource === JSON.stringify({ 'Fn::GetAtt': [logsId, 'Arn'] }) ||
        (resource === '"*"' &&
          JSON.stringify(actions) === '["cloudfront:CreateInvalidation","cloudfront:GetInvalidation"]');
      expect({ actions, resource, allowed }).toEqual({ actions, resource, allowed: true });
    }
    // The CDK asset bucket is only read.
    const assetBucket = resources.filter((entry) => entry.resource.includes('cdk-hnb659fds-assets-'));
    expect(assetBucket.length).toBeGreaterThan(0);
    for (const { actions, resource } of assetBucket) {
      expect({ resource, actions }).toEqual({ resource, actions: ['s3:GetBucket*', 's3:GetObject*', 's3:List*'] });
    }
  });
});

describe('sign-in domain (the stack’s Cognito pool)', () => {
  it('serves managed login on a prefix domain unique to the stack', () => {
    const domain = propertiesOf(onlyResource(cognito, 'AWS::Cognito::UserPoolDomain'));
    expect(domain).toEqual({
      UserPoolId: { Ref: logicalId(cognito, users(cognito)) },
      ManagedLoginVersion: 2,
      Domain: {
        'Fn::Join': [
          '',
          [
            'secretsservice-',
            {
              'Fn::Select': [
                4,
                { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
              ],
            },
          ],
        ],
      },
    });
  });

  it('takes its prefix from cognitoDomainPrefix when set', () => {
    expect(propertiesOf(onlyResource(customOrigin, 'AWS::Cognito::UserPoolDomain')).Domain).toBe('secrets-acme');
    expect(contentSecurityPolicy(customOrigin)).toContain(' https://prefix.auth.region.amazoncognito.com');
    expect(render(customOrigin, customOrigin.template.findOutputs('CognitoDomainUrl').CognitoDomainUrl?.Value)).toBe(
      'https://prefix.auth.region.amazoncognito.com',
    );
  });

  it('gives the dashboard client Cognito’s own branding, once the domain exists (managed login shows nothing without)', () => {
    const branding = onlyResource(cognito, 'AWS::Cognito::ManagedLoginBranding');
    const directory = users(cognito);
    const { client, domain } = directory;
    expect(propertiesOf(branding)).toEqual({
      UserPoolId: { Ref: logicalId(cognito, directory) },
      ClientId: { Ref: logicalId(cognito, client) },
      UseCognitoProvidedValues: true,
    });
    expect(branding.DependsOn).toContain(logicalId(cognito, domain));
  });

  it('is not there with an external issuer', () => {
    external.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    external.template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 0);
  });
});

describe('default sign-in domain prefix', () => {
  const literalPart = (stackName: string): string => {
    const stack = new Stack(new App(), stackName);
    const parts = (stack.resolve(defaultDomainPrefix(stack)) as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    return parts[0] as string;
  };

  it.each([
    ['SecretsService', 'secretsservice-'],
    ['Secrets-Service-Prod', 'secrets-service-prod-'],
    ['AwsSecrets', 'secrets-'],
    ['My-AWS-Cognito-Stack', 'my-stack-'],
    ['AmaAWSzon', 'dashboard-'],
    ['Cognito', 'dashboard-'],
    [`S${'x'.repeat(127)}`, `s${'x'.repeat(49)}-`],
  ])('for stack %s starts %s, a valid prefix without a word Cognito refuses', (stackName, expected) => {
    const literal = literalPart(stackName);
    expect(literal).toBe(expected);
    // The stack id's last UUID group: 12 hexadecimal digits.
    const example = `${literal}1a2b3c4d5e6f`;
    expect(example).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/);
    expect(example).not.toMatch(/aws|amazon|cognito/);
  });
});

describe('with a custom domain in front of the distribution (dashboardOrigin)', () => {
  it('makes that origin the app client’s only callback and sign-out URL', () => {
    const client = propertiesOf(onlyResource(customOrigin, 'AWS::Cognito::UserPoolClient'));
    expect(client.CallbackURLs).toEqual([`${CUSTOM_ORIGIN}/`]);
    expect(client.LogoutURLs).toEqual([`${CUSTOM_ORIGIN}/`]);
  });

  it('signs out back to it', () => {
    const { config } = deployedConfig(customOrigin);
    expect(new URL(config.signOutUrl ?? '').searchParams.get('logout_uri')).toBe(`${CUSTOM_ORIGIN}/`);
    expect(config.signOutUrl).toContain(`logout_uri=${encodeURIComponent(`${CUSTOM_ORIGIN}/`)}`);
  });

  it('outputs it as the dashboard URL, and the distribution’s host name for its DNS', () => {
    const outputs = customOrigin.template.findOutputs('*');
    expect(outputs.DashboardUrl?.Value).toBe(`${CUSTOM_ORIGIN}/`);
    expect(render(customOrigin, outputs.DashboardDistributionDomainName?.Value)).toBe('d111.cloudfront.net');
  });
});

describe('outputs', () => {
  it('give the dashboard URL (the distribution’s) and, with Cognito, the sign-in domain', () => {
    const outputs = cognito.template.findOutputs('*');
    expect(render(cognito, outputs.DashboardUrl?.Value)).toBe('https://d111.cloudfront.net/');
    expect(render(cognito, outputs.CognitoDomainUrl?.Value)).toBe('https://prefix.auth.region.amazoncognito.com');
    expect(outputs).not.toHaveProperty('DashboardDistributionDomainName');
    expect(render(external, external.template.findOutputs('DashboardUrl').DashboardUrl?.Value)).toBe(
      'https://d111.cloudfront.net/',
    );
    expect(external.template.findOutputs('CognitoDomainUrl')).toEqual({});
  });
});

describe('cdk-nag', () => {
  it.each([
    ['Cognito', () => cognito],
    ['an external issuer', () => external],
    ['a custom origin and domain prefix', () => customOrigin],
  ])('reports no unacknowledged finding with %s', (_variant, variant) => {
    expect(variant().findings).toEqual([]);
  });

  it('acknowledges the distribution’s geo restriction, WAF, access logs and default certificate, each with its reason', () => {
    const onDistribution = cognito.acknowledgements.filter(
      (acknowledgement) => acknowledgement.constructPath === cognito.stack.dashboard.distribution.node.path,
    );
    expect(onDistribution.map((acknowledgement) => acknowledgement.id).sort()).toEqual([
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR3',
      'AwsSolutions-CFR4',
    ]);
    for (const acknowledgement of onDistribution) expect(acknowledgement.reason.length).toBeGreaterThan(80);
  });
});
