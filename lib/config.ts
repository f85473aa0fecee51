import { DEFAULT_AUDIT_RETENTION_DAYS, MIN_AUDIT_RETENTION_DAYS } from '@contract/audit';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '@contract/rate-limit';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { z } from 'zod';

/** Log levels the Lambda logger understands (`silent` is for tests, never for a deployment). */
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Retention periods CloudWatch Logs accepts, in days (9999 keeps logs forever). */
const RETENTION_DAYS = Object.values(RetentionDays).filter((value): value is number => typeof value === 'number');

/**
 * `-c key=value` on the command line always yields a string, while cdk.json yields JSON types; both are
 * accepted, so a number or boolean may arrive either way.
 */
const booleanValue = (error: string) =>
  z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], { error });

/** The range AWS WAF accepts for a rate-based rule's limit (requests per evaluation window). */
const WAF_RATE_LIMIT_MIN = 10;
const WAF_RATE_LIMIT_MAX = 2_000_000_000;

const httpsUrl = (error: string) => z.url({ protocol: /^https$/, error });

const ORIGIN_ERROR =
  'must be an origin: https://, a host and an optional port, no path, e.g. https://dashboard.example.com (http:// only for localhost)';

/** Cognito's rules for a prefix domain (`<prefix>.auth.<region>.amazoncognito.com`): a DNS label in lowercase. */
const DOMAIN_PREFIX_ERROR =
  'must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen, e.g. secrets-acme';
/** Words Cognito refuses in a prefix domain. */
const RESERVED_PREFIX_WORDS = ['aws', 'amazon', 'cognito'] as const;

/** An https origin exactly as a browser sends it (or http on localhost, for a dashboard in development). */
const isDashboardOrigin = (value: string): boolean => {
  try {
    const url = new URL(value);
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
    // Letters, digits and the punctuation of a host and port only: the value becomes a quoted header.
    const plain = /^[\w.:/[\]-]+$/.test(value);
    return plain && url.origin === value && (url.protocol === 'https:' || (url.protocol === 'http:' && local));
  } catch {
    return false;
  }
};

/**
 * Every CDK context key the app reads, with its default. Set a key in cdk.json's `context` or with
 * `npx cdk synth -c key=value`.
 */
const contextSchema = z.object({
  /**
   * Issuer (`iss`) of the dashboard's session JWTs, e.g. `https://example.eu.auth0.com/`. Default: none,
   * which creates a Cognito user pool and uses it as the issuer. Requires `sessionAudience`.
   */
  sessionIssuer: httpsUrl('must be an https URL, e.g. https://idp.example.com/').optional(),
  /**
   * Prefix of the stack's Cognito sign-in domain, `https://<prefix>.auth.<region>.amazoncognito.com`, where
   * the dashboard's users sign in (managed login). It must be free in the region across all AWS accounts.
   * Default: the stack name in lowercase and the last group of the stack's id (unique per stack, e.g.
   * `secretsservice-1a2b3c4d5e6f`). Only valid without `sessionIssuer`.
   */
  cognitoDomainPrefix: z
    .string({ error: DOMAIN_PREFIX_ERROR })
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { error: DOMAIN_PREFIX_ERROR })
    .refine((prefix) => !RESERVED_PREFIX_WORDS.some((word) => prefix.includes(word)), {
      error: `must not contain ${RESERVED_PREFIX_WORDS.map((word) => `"${word}"`).join(', ')} (Cognito refuses them)`,
    })
    .optional(),
  /** Audience (`aud`) the session JWTs must carry. Default: none (the Cognito app client's id). */
  sessionAudience: z
    .string({ error: 'must be a non-empty string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .optional(),
  /**
   * JWKS URL of an external issuer. Default: none, so the authorizer finds it through OpenID discovery
   * (`jwks_uri` of `<issuer>/.well-known/openid-configuration`, which Cognito publishes too). Only valid
   * together with `sessionIssuer`.
   */
  sessionJwksUrl: httpsUrl('must be an https URL, e.g. https://idp.example.com/.well-known/jwks.json').optional(),
  /** Lambda log level. Default: `info`. */
  logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** API Gateway stage name, the first segment of the API URL's path. Default: `prod`. */
  stageName: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be 1-128 letters, digits, hyphens or underscores' })
    .default('prod'),
  /** Stage-wide steady request rate, requests per second. Default: 50. */
  throttlingRateLimit: z.coerce
    .number({ error: 'must be a number' })
    .positive({ error: 'must be a number greater than 0' })
    .default(50),
  /** Stage-wide burst, in requests. Default: 100. */
  throttlingBurstLimit: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .positive({ error: 'must be a whole number greater than 0' })
    .default(100),
  /** Days CloudWatch keeps function and access logs. Default: 30. */
  logRetentionDays: z.coerce
    .number({ error: 'must be a number of days' })
    .refine((days) => RETENTION_DAYS.includes(days), {
      error: `must be one of the periods CloudWatch Logs accepts: ${RETENTION_DAYS.join(', ')}`,
    })
    .default(30),
  /**
   * Days an audit event is kept: DynamoDB's TTL deletes its item after them (the functions read
   * `AUDIT_RETENTION_DAYS`), and the event bus's archive keeps its copy as long. Default: 400.
   */
  auditRetentionDays: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int({ error: 'must be a whole number of days' })
    .min(MIN_AUDIT_RETENTION_DAYS, {
      error: `must be at least ${MIN_AUDIT_RETENTION_DAYS} days (an audit trail must outlive the investigations that read it)`,
    })
    .default(DEFAULT_AUDIT_RETENTION_DAYS),
  /**
   * Whether the stack sets the account's API Gateway CloudWatch Logs role, which access logging
   * needs. It is one setting per account and region: set `false` when another stack already manages it.
   * Default: `true`.
   */
  apiGatewayCloudWatchRole: booleanValue('must be true or false').default(true),
  /**
   * E-mail address subscribed to the alarm topic (AWS sends it a confirmation first). Default: none, so
   * the alarms notify the topic only and other subscriptions are added outside the stack.
   */
  alarmEmail: z.email({ error: 'must be an e-mail address, e.g. ops@example.com' }).optional(),
  /**
   * Origin of the web dashboard, which calls the API across origins: the API answers its CORS preflights
   * and lets it read every answer, and with the stack's Cognito pool `<origin>/` is the app client's only
   * callback and sign-out URL. Set it when a custom domain fronts the stack's CloudFront distribution,
   * e.g. `https://dashboard.example.com` (its DNS, certificate and the distribution's alternate domain name
   * are set up outside the stack), or to try a dashboard under development against the deployed API
   * (`http://localhost:5173`; the deployed dashboard then cannot sign in or call the API).
   * Default: the distribution's own origin, `https://<id>.cloudfront.net`.
   */
  dashboardOrigin: z.string({ error: ORIGIN_ERROR }).refine(isDashboardOrigin, { error: ORIGIN_ERROR }).optional(),
  /**
   * Whether an AWS WAF web ACL (the per-credential limit, AWS managed common and IP-reputation rule
   * groups, a per-IP rate rule) guards the API stage. WAF is billed per web ACL, rule and request
   * (docs/operations.md). Without it no per-credential limit is deployed. Default: `true`.
   */
  waf: booleanValue('must be true or false').default(true),
  /**
   * Requests one source IP may send in 5 minutes before the web ACL answers it 429; only used with
   * `waf=true`. AWS WAF accepts 10 to 2,000,000,000. Default: 1000.
   */
  wafRateLimit: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(WAF_RATE_LIMIT_MIN, { error: `must be at least ${WAF_RATE_LIMIT_MIN} (the lowest limit AWS WAF accepts)` })
    .max(WAF_RATE_LIMIT_MAX, { error: `must be at most ${WAF_RATE_LIMIT_MAX} (the highest limit AWS WAF accepts)` })
    .default(1000),
  /**
   * Requests one credential (one `Authorization` value: an API token, a session) may send per minute
   * before the web ACL answers it 429 with `Retry-After`; only used with `waf=true`. AWS WAF accepts 10
   * to 2,000,000,000. Default: 600.
   */
  rateLimitPerMinute: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(WAF_RATE_LIMIT_MIN, { error: `must be at least ${WAF_RATE_LIMIT_MIN} (the lowest limit AWS WAF accepts)` })
    .max(WAF_RATE_LIMIT_MAX, { error: `must be at most ${WAF_RATE_LIMIT_MAX} (the highest limit AWS WAF accepts)` })
    .default(DEFAULT_RATE_LIMIT_PER_MINUTE),
});

/** The context keys the app reads. */
export const CONTEXT_KEYS = Object.keys(contextSchema.shape) as (keyof typeof contextSchema.shape)[];

/** Where the dashboard's session JWTs come from. */
export type SessionIssuerConfig =
  /**
   * The stack creates a Cognito user pool, its sign-in domain (`domainPrefix`, else a default per stack)
   * and the dashboard's app client, and trusts their ID tokens.
   */
  | { readonly kind: 'cognito'; readonly domainPrefix?: string }
  /** An external OIDC provider, configured through context. */
  | { readonly kind: 'external'; readonly issuer: string; readonly audience: string; readonly jwksUrl?: string };

/** The app's validated configuration. */
export interface ServiceConfig {
  /** Where session JWTs come from. */
  readonly sessionIssuer: SessionIssuerConfig;
  /** `LOG_LEVEL` of every function. */
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** API Gateway stage name. */
  readonly stageName: string;
  /** Stage-wide steady rate, requests per second. */
  readonly throttlingRateLimit: number;
  /** Stage-wide burst, in requests. */
  readonly throttlingBurstLimit: number;
  /** CloudWatch Logs retention of function and access logs. */
  readonly logRetention: RetentionDays;
  /** Days an audit event is kept, in the table (TTL) and in the event bus's archive. */
  readonly auditRetentionDays: number;
  /** Whether the stack sets the account's API Gateway CloudWatch Logs role. */
  readonly apiGatewayCloudWatchRole: boolean;
  /** E-mail address subscribed to the alarm topic, if any. */
  readonly alarmEmail: string | undefined;
  /** The dashboard's origin, when it is not the stack's CloudFront distribution (a custom domain in front of it). */
  readonly dashboardOrigin: string | undefined;
  /** Whether a WAF web ACL guards the API stage. */
  readonly waf: boolean;
  /** The web ACL's per-IP limit, requests per 5 minutes (used only when `waf` is true). */
  readonly wafRateLimit: number;
  /** The web ACL's per-credential limit, requests per minute (used only when `waf` is true). */
  readonly rateLimitPerMinute: number;
}

/** Thrown when a context value is wrong; the message names the key, so synth stops with one clear sentence. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const describe = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

/**
 * Reads and validates every context key once. Call it with the App (context set on the App or in
 * cdk.json is visible from there) and hand the result to the stack.
 */
export const loadConfig = (scope: Construct): ServiceConfig => {
  const raw = Object.fromEntries(
    CONTEXT_KEYS.map((key) => [key, scope.node.tryGetContext(key) as unknown]).filter(
      ([, value]) => value !== undefined,
    ),
  );
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    const sentences = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      return `Invalid CDK context "${key}": ${issue.message} (got ${describe(raw[key])}).`;
    });
    throw new ConfigError(sentences.join(' '));
  }
  const context = parsed.data;

  if (context.sessionIssuer === undefined && context.sessionAudience !== undefined) {
    throw new ConfigError('Invalid CDK context "sessionIssuer": it must be set when "sessionAudience" is set.');
  }
  if (context.sessionIssuer === undefined && context.sessionJwksUrl !== undefined) {
    throw new ConfigError('Invalid CDK context "sessionIssuer": it must be set when "sessionJwksUrl" is set.');
  }
  if (context.sessionIssuer !== undefined && context.sessionAudience === undefined) {
    throw new ConfigError('Invalid CDK context "sessionAudience": it must be set when "sessionIssuer" is set.');
  }
  if (context.sessionIssuer !== undefined && context.cognitoDomainPrefix !== undefined) {
    throw new ConfigError(
      'Invalid CDK context "cognitoDomainPrefix": it names the sign-in domain of the stack\'s own Cognito pool, so it must not be set with "sessionIssuer".',
    );
  }
  if (context.throttlingBurstLimit < context.throttlingRateLimit) {
    throw new ConfigError(
      `Invalid CDK context "throttlingBurstLimit": it must be at least "throttlingRateLimit" (${context.throttlingRateLimit}).`,
    );
  }

  return {
    sessionIssuer:
      context.sessionIssuer === undefined || context.sessionAudience === undefined
        ? {
            kind: 'cognito',
            ...(context.cognitoDomainPrefix !== undefined && { domainPrefix: context.cognitoDomainPrefix }),
          }
        : {
            kind: 'external',
            issuer: context.sessionIssuer,
            audience: context.sessionAudience,
            ...(context.sessionJwksUrl !== undefined && { jwksUrl: context.sessionJwksUrl }),
          },
    logLevel: context.logLevel,
    stageName: context.stageName,
    throttlingRateLimit: context.throttlingRateLimit,
    throttlingBurstLimit: context.throttlingBurstLimit,
    logRetention: context.logRetentionDays as RetentionDays,
    auditRetentionDays: context.auditRetentionDays,
    apiGatewayCloudWatchRole: context.apiGatewayCloudWatchRole,
    alarmEmail: context.alarmEmail,
    dashboardOrigin: context.dashboardOrigin,
    waf: context.waf,
    wafRateLimit: context.wafRateLimit,
    rateLimitPerMinute: context.rateLimitPerMinute,
  };
};
