import * as path from 'node:path';
import { SHARE_PATH_PREFIX } from '@client/share-link';
import {
  DASHBOARD_CONFIG_PATH,
  DASHBOARD_HSTS_MAX_AGE_SECONDS,
  type DashboardConfig,
  dashboardContentSecurityPolicyOfOrigins,
  dashboardSecurityHeaders,
} from '@contract/dashboard';
import {
  AssetHashType,
  DefaultStackSynthesizer,
  DockerImage,
  Duration,
  Lazy,
  Names,
  RemovalPolicy,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { SingletonFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildDashboard } from '../../dashboard/build';
import { PROJECT_ROOT } from '../bundling';

/** Properties of the {@link DashboardSite}. */
export interface DashboardSiteProps {
  /** How long the deployment function's logs and the buckets' access logs are kept. */
  readonly logRetention: RetentionDays;
}

/** What {@link DashboardSite.publish} deploys. */
export interface DashboardPublication {
  /** The dashboard's `config.json` (deploy-time values allowed). */
  readonly config: DashboardConfig;
  /**
   * Every origin the pages may send requests to besides their own (the CSP's `connect-src`), as origins,
   * not URLs: deploy-time values are taken as given.
   */
  readonly connectTo: readonly string[];
  /**
   * Where the deployment goes (its custom resource, CDK's function and layer behind it, its role and log
   * group): a nested stack, so that they do not count against the root template. They hold nothing: the
   * files are in the bucket, which stays in this construct's scope with the distribution.
   */
  readonly deploymentScope: Construct;
}

/** The folder of the dashboard's sources and its build (`dashboard/build.ts`). */
const DASHBOARD_DIR = path.join(PROJECT_ROOT, 'dashboard');

/** The enum member whose value is `value`: a header value the contract names but CloudFront lacks stops synthesis. */
const enumValue = <T extends string>(values: Record<string, T>, name: string, value: string): T => {
  const found = Object.values(values).find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`CloudFront has no ${name} "${value}"`);
  return found;
};

/**
 * The web dashboard: its static files in a private S3 bucket, served only through a CloudFront
 * distribution (origin access control, HTTPS only, the dashboard's security headers), and
 * {@link publish} to deploy the build with its `config.json`.
 *
 * The API is not behind this distribution: API Gateway must see the caller's own address, which IP-bound
 * tokens are checked against, so the pages call the API on its own origin (CORS).
 */
export class DashboardSite extends Construct {
  /** The bucket of the dashboard's files: private, read by the distribution only. */
  readonly bucket: Bucket;
  /** The bucket that keeps the dashboard bucket's server access logs. */
  readonly accessLogsBucket: Bucket;
  /** The distribution that serves the files. */
  readonly distribution: Distribution;
  /** The headers every answer of the distribution carries. */
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** The CloudFront function that answers a share's link page, `/s/<id>`, with `index.html`. */
  readonly shareLinkPage: CloudFrontFunction;
  /** The distribution's own origin, `https://<id>.cloudfront.net`. */
  readonly distributionOrigin: string;
  private readonly logRetention: RetentionDays;
  private published: BucketDeployment | undefined;
  private connectTo: readonly string[] | undefined;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    this.logRetention = props.logRetention;

    // Retained, like every log of the stack, until its lifecycle rule expires the objects.
    this.accessLogsBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules:
        props.logRetention === RetentionDays.INFINITE ? [] : [{ expiration: Duration.days(props.logRetention) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Nothing in this bucket is data: every deploy writes the build and config.json anew from the
    // repository and the stack, so it goes with the stack, emptied first, rather than lingering unused.
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'dashboard-files/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const { region } = Stack.of(this);
    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'Headers', {
      // Response headers policies are global to the account: the region keeps two deployments of the stack apart.
      responseHeadersPolicyName: `${Names.uniqueResourceName(this, { maxLength: 100 })}-${region}`,
      comment: 'Secrets Service dashboard: CSP, HSTS, no sniffing, no framing, no referrer',
      securityHeadersBehavior: {
        // Produced at synthesis: the API the policy names is created after the distribution, whose origin it needs.
        contentSecurityPolicy: {
          contentSecurityPolicy: Lazy.string({ produce: () => this.contentSecurityPolicy() }),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(DASHBOARD_HSTS_MAX_AGE_SECONDS),
          includeSubdomains: dashboardSecurityHeaders['Strict-Transport-Security'].includes('includeSubDomains'),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: {
          frameOption: enumValue(HeadersFrameOption, 'frame option', dashboardSecurityHeaders['X-Frame-Options']),
          override: true,
        },
        referrerPolicy: {
          referrerPolicy: enumValue(
            HeadersReferrerPolicy,
            'referrer policy',
            dashboardSecurityHeaders['Referrer-Policy'],
          ),
          override: true,
        },
      },
    });

    const files: BehaviorOptions = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: this.responseHeadersPolicy,
      compress: true,
    };
    // A share's link, `/s/<id>#<key>`, is the dashboard's page: the bucket has no such object, so the
    // viewer request is turned to index.html, whose script reads the id from the address. Only this
    // path: any other missing file stays a missing file (no error page maps everything to the app).
    this.shareLinkPage = new CloudFrontFunction(this, 'ShareLinkPage', {
      comment: 'Secrets Service dashboard: a share link page is index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        "function handler(event) { var request = event.request; request.uri = '/index.html'; return request; }",
      ),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Secrets Service dashboard',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: files,
      additionalBehaviors: {
        [`${SHARE_PATH_PREFIX}*`]: {
          ...files,
          functionAssociations: [{ function: this.shareLinkPage, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });
    this.distributionOrigin = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The dashboard is for the users of the identity provider wherever they work; a country list would be a guess, and every API call is authorized by credential (and API tokens by address) regardless of where the page came from.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves only the static build and config.json (no credential, no data, no API): a web ACL would guard nothing a request could change. The API has its own opt-in web ACL (`-c waf=true`).',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          "CloudFront's standard logs need a log bucket with ACLs enabled, which every bucket of the stack keeps off. The distribution serves only the public static build (no credential, no data); the dashboard bucket's server access log records each object CloudFront fetches and each deploy, and the API, where who-did-what matters, keeps its own access log with the caller's address.",
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "The distribution uses CloudFront's default *.cloudfront.net certificate, whose minimum viewer TLS version CloudFront fixes and no setting raises; a custom domain in front of it (`dashboardOrigin`) with its own certificate can require TLSv1.2_2021.",
      },
    );
  }

  /**
   * Deploys the dashboard's build and its `config.json` to the bucket, invalidating the distribution, and
   * fixes the origins its pages may call. Call it once, when the API and the issuer exist.
   */
  publish(publication: DashboardPublication): BucketDeployment {
    if (this.published) throw new Error('The dashboard is published once');
    this.connectTo = publication.connectTo;
    const stateless = new Construct(publication.deploymentScope, this.node.id);

    // An own role and log group instead of the function's defaults, whose AWS managed policy may write to
    // every log group of the account.
    const role = new Role(stateless, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the dashboard build and config.json into its bucket and invalidates the distribution',
    });
    const logGroup = new LogGroup(stateless, 'DeploymentLogs', { retention: this.logRetention });
    logGroup.grantWrite(role);

    this.published = new BucketDeployment(stateless, 'Deployment', {
      sources: [
        Source.asset(DASHBOARD_DIR, {
          // The build is hashed, not its folder: it also depends on contract/ and the packages it bundles.
          assetHashType: AssetHashType.OUTPUT,
          bundling: {
            // Never pulled: the local build below always runs (esbuild from the devDependencies, no Docker).
            image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-alpine'),
            local: {
              tryBundle: (outputDir: string) => {
                buildDashboard(outputDir);
                return true;
              },
            },
          },
        }),
        Source.jsonData(DASHBOARD_CONFIG_PATH.replace(/^\//, ''), publication.config),
      ],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      // Every file is revalidated (ETag): the build's file names carry no hash, and a page of one build must
      // never load the script of another.
      cacheControl: [CacheControl.noCache()],
      role,
      logGroup,
    });
    this.acknowledgeDeploymentFindings(this.published, role);
    return this.published;
  }

  /** The deployment of the build and `config.json`, once {@link publish} has run. */
  get deployment(): BucketDeployment | undefined {
    return this.published;
  }

  /** The findings of CDK's deployment function and the grants it makes, each with its reason. */
  private acknowledgeDeploymentFindings(deployment: BucketDeployment, role: Role): void {
    const stack = Stack.of(deployment);
    const files = this.bucket.node.defaultChild as CfnBucket;
    // How cdk-nag names the bucket's ARN in the deployment's template: a parameter when that is a nested stack.
    const filesArn =
      stack === Stack.of(this)
        ? `<${stack.getLogicalId(files)}.Arn>`
        : `<referenceto${Names.nodeUniqueId(files.node)}Arn>`;
    const qualifier = stack.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const readsAssetsAndWritesFiles =
      "BucketDeployment's own grants: it reads the build's zip from the CDK asset bucket (s3:GetBucket*, s3:GetObject*, s3:List*) and replaces the dashboard bucket's files, deleting those the build no longer has (s3:DeleteObject*, s3:Abort*); both buckets are named, only the object keys are wildcards.";
    Validations.of(role).acknowledge(
      ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: readsAssetsAndWritesFiles,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*]`,
        reason:
          "The CDK bootstrap asset bucket's objects: asset keys are content hashes known only after synthesis, so BucketDeployment grants read of the bucket's objects; the role can read them, not write them.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::${filesArn}/*]`,
        reason:
          "Every object of the dashboard's own bucket: the deployment writes the whole build and removes what the build no longer has, so it needs every key of that one bucket, and no other bucket's.",
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'BucketDeployment grants cloudfront:CreateInvalidation and cloudfront:GetInvalidation on "*" to invalidate the distribution after each deploy; the two actions only drop cached copies, they change no configuration.',
      },
    );

    // CDK's deployment function is one per stack, at the stack's root, so its acknowledgements go there.
    const handler = deployment.node.findChild('CustomResourceHandler') as SingletonFunction;
    const deploymentFunction = stack.node.findChild(handler.constructName);
    const runtime = `CDK's BucketDeployment function, whose runtime aws-cdk-lib fixes and moves with its upgrades; it runs only while CloudFormation deploys, never on a request.`;
    Validations.of(deploymentFunction).acknowledge(
      { id: 'AwsSolutions-L1', reason: runtime },
      { id: 'Serverless-LambdaLatestVersion', reason: runtime },
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'CloudFormation invokes it as a custom resource and waits for its answer: a failure fails and rolls back the deploy, which the operator sees, and a queued copy of the event would have no one to replay it to.',
      },
      {
        id: 'Serverless-LambdaTracing',
        reason:
          'It copies files and invalidates the distribution during a deploy, with no request to follow; BucketDeployment has no tracing setting, and its log group keeps its output.',
      },
    );
  }

  private contentSecurityPolicy(): string {
    if (!this.connectTo) throw new Error('DashboardSite.publish() was never called: the CSP names no API');
    return dashboardContentSecurityPolicyOfOrigins(this.connectTo);
  }
}
