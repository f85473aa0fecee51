import { corsHeaders } from '@contract/cors';
import { ErrorText } from '@contract/errors';
import { NO_STORE_HEADERS } from '@contract/headers';
import {
  RATE_LIMIT_PROBE_HEADER,
  RATE_LIMIT_PROBE_VALUE,
  RATE_LIMIT_RETRY_AFTER_SECONDS,
  RATE_LIMIT_WINDOW_SECONDS,
} from '@contract/rate-limit';
import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { WebAclMetrics } from './operations-dashboard';

/** Properties of the {@link WebAcl}. */
export interface WebAclProps {
  /** The API stage the web ACL guards. */
  readonly stage: Stage;
  /** Requests one source IP may send per 5 minutes; more are answered 429. */
  readonly rateLimit: number;
  /** Requests one credential (one `Authorization` value) may send per minute; more are answered 429 with `Retry-After`. */
  readonly rateLimitPerMinute: number;
  /** The dashboard's origin: every block carries its CORS headers, as the gateway's own answers do, so the dashboard can read it. */
  readonly dashboardOrigin: string;
}

/** The rate rule's evaluation window: the limit counts requests over the last 5 minutes. */
export const WAF_RATE_WINDOW_SECONDS = 300;

/** Keys of the custom response bodies. */
const TOO_MANY_REQUESTS_BODY = 'TooManyRequests';
const FIREWALL_BLOCKED_BODY = 'FirewallBlocked';

/*
 * Labels of the two managed rule groups, from the AWS WAF Developer Guide, "AWS Managed Rules rule
 * groups list" (https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-baseline.html
 * and .../aws-managed-rule-groups-ip-rep.html): each rule adds `<namespace><label>` to what it matches.
 */
const CORE_RULE_SET = 'awswaf:managed:aws:core-rule-set:';
const IP_REPUTATION = 'awswaf:managed:aws:amazon-ip-list:';

/**
 * Core rule set labels that only count: automation clients (curl, SDKs, CI jobs) often send no
 * User-Agent, and the API accepts bodies up to 16 KiB (answering larger ones with the contract's 413)
 * where the rule set stops at 8 KB.
 */
const CORE_RULE_SET_COUNT_ONLY = ['NoUserAgent_Header', 'SizeRestrictions_Body'];

/**
 * The rule set's other labels. A label match cannot say "a label of this namespace other than these",
 * so a request that carries a count-only label as well is blocked by naming the others: without them,
 * leaving out the User-Agent header would switch the whole rule set off.
 */
const CORE_RULE_SET_BLOCKING = [
  'UserAgent_BadBots_Header',
  'SizeRestrictions_QueryString',
  'SizeRestrictions_Cookie_Header',
  'SizeRestrictions_URIPath',
  'EC2MetaDataSSRF_Body',
  'EC2MetaDataSSRF_Cookie',
  'EC2MetaDataSSRF_URIPath',
  'EC2MetaDataSSRF_QueryArguments',
  'GenericLFI_QueryArguments',
  'GenericLFI_URIPath',
  'GenericLFI_Body',
  'RestrictedExtensions_URIPath',
  'RestrictedExtensions_QueryArguments',
  'GenericRFI_QueryArguments',
  'GenericRFI_Body',
  'GenericRFI_URIPath',
  'CrossSiteScripting_Cookie',
  'CrossSiteScripting_QueryArguments',
  'CrossSiteScripting_Body',
  'CrossSiteScripting_URIPath',
];

/** The IP reputation list's blocking rules; its AWSManagedIPDDoSList rule only counts, as AWS configures it. */
const IP_REPUTATION_BLOCKING = ['AWSManagedIPReputationList', 'AWSManagedReconnaissanceList'];

const label = (key: string): CfnWebACL.StatementProperty => ({ labelMatchStatement: { scope: 'LABEL', key } });
const anyLabel = (namespace: string, names: readonly string[]): CfnWebACL.StatementProperty => ({
  orStatement: { statements: names.map((name) => label(`${namespace}${name}`)) },
});

/**
 * An AWS WAF web ACL (REGIONAL) in front of the API stage: the rate-limit probe, AWS's IP-reputation
 * list, a per-IP rate limit, the per-credential limit, and AWS's common rule set, each with CloudWatch
 * metrics and sampled requests. Requests no rule blocks are allowed, and every block answers with the
 * contract's JSON error body, `Cache-Control: no-store` and the dashboard's CORS headers.
 *
 * The per-credential limit counts each `Authorization` header value (text transformation NONE: one
 * token or session is one key) over a 60-second window, so one caller over it is refused while every
 * other caller keeps its own count. A request without the header is not counted by it (WAF leaves a
 * request out of a custom-key rule when a key is missing); the per-IP limit counts those. WAF cannot
 * compute when a slot frees, so its 429 says `Retry-After: 60`, a whole window. Custom response
 * headers reach the client under the names given: WAF prefixes `x-amzn-waf-` only to the request
 * headers it inserts (AWS::WAFv2::WebACL CustomHTTPHeader, CloudFormation reference).
 *
 * The probe rule answers a request carrying `X-Rate-Limit-Probe: 1` exactly as the per-credential
 * limit does, so the smoke test checks that answer without tripping a real limit; it shows the answer's
 * shape, not that the limit counts.
 *
 * A managed rule group's own block answers WAF's bare 403, and only a per-rule override could give it
 * a body. So each group runs in count mode, where it only labels requests, and a rule right after it
 * blocks what the group's blocking rules labelled, with the contract's 403 body.
 *
 * The rate rule counts by the request's source IP as WAF sees it (the same address API Gateway passes
 * on as `sourceIp`), never a client header such as X-Forwarded-For, which a caller could set freely.
 */
export class WebAcl extends Construct implements WebAclMetrics {
  /** The web ACL. */
  readonly webAcl: CfnWebACL;
  readonly webAclMetricName: string;
  /** The rules that block: the managed rule groups in count mode block nothing, so their metrics are left out. */
  readonly ruleMetricNames: readonly string[];

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    // WAF metrics are keyed by metric name, not by ARN: the stack name keeps two stacks' metrics apart.
    this.webAclMetricName = `${Stack.of(this).stackName}-Api`;
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      metricName,
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
    });
    const countingRuleGroup = (name: string, priority: number): CfnWebACL.RuleProperty => ({
      name: `AWS-${name}`,
      priority,
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
      overrideAction: { count: {} },
      visibilityConfig: visibility(`AWS-${name}`),
    });
    const headers = (extra: Record<string, string> = {}): CfnWebACL.CustomHTTPHeaderProperty[] =>
      Object.entries({ ...NO_STORE_HEADERS, ...corsHeaders(props.dashboardOrigin), ...extra }).map(([name, value]) => ({
        name,
        value,
      }));
    const blockingRule = (
      name: string,
      priority: number,
      statement: CfnWebACL.StatementProperty,
      responseCode: number,
      customResponseBodyKey: string,
      responseHeaders = headers(),
    ): CfnWebACL.RuleProperty => ({
      name,
      priority,
      statement,
      action: { block: { customResponse: { responseCode, customResponseBodyKey, responseHeaders } } },
      visibilityConfig: visibility(name),
    });
    const rateLimited = headers({ 'Retry-After': RATE_LIMIT_RETRY_AFTER_SECONDS });

    const rules: CfnWebACL.RuleProperty[] = [
      // First, so that a probe is answered whatever else the request carries, and counted by no limit.
      blockingRule(
        'RateLimitProbe',
        0,
        {
          byteMatchStatement: {
            fieldToMatch: { singleHeader: { Name: RATE_LIMIT_PROBE_HEADER.toLowerCase() } },
            positionalConstraint: 'EXACTLY',
            searchString: RATE_LIMIT_PROBE_VALUE,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        429,
        TOO_MANY_REQUESTS_BODY,
        rateLimited,
      ),
      // Cheapest first: known-bad addresses and floods are dropped before the common rule set inspects bodies.
      countingRuleGroup('AWSManagedRulesAmazonIpReputationList', 1),
      blockingRule('BlockIpReputation', 2, anyLabel(IP_REPUTATION, IP_REPUTATION_BLOCKING), 403, FIREWALL_BLOCKED_BODY),
      blockingRule(
        'PerIpRateLimit',
        3,
        {
          rateBasedStatement: {
            limit: props.rateLimit,
            aggregateKeyType: 'IP',
            evaluationWindowSec: WAF_RATE_WINDOW_SECONDS,
          },
        },
        429,
        TOO_MANY_REQUESTS_BODY,
      ),
      blockingRule(
        'PerCredentialRateLimit',
        4,
        {
          rateBasedStatement: {
            limit: props.rateLimitPerMinute,
            evaluationWindowSec: RATE_LIMIT_WINDOW_SECONDS,
            aggregateKeyType: 'CUSTOM_KEYS',
            customKeys: [{ header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } }],
          },
        },
        429,
        TOO_MANY_REQUESTS_BODY,
        rateLimited,
      ),
      countingRuleGroup('AWSManagedRulesCommonRuleSet', 5),
      blockingRule(
        'BlockCommonRuleSet',
        6,
        {
          orStatement: {
            statements: [
              // Any label of the namespace, so that a rule AWS adds later blocks too ...
              {
                andStatement: {
                  statements: [
                    { labelMatchStatement: { scope: 'NAMESPACE', key: CORE_RULE_SET } },
                    ...CORE_RULE_SET_COUNT_ONLY.map((name) => ({
                      notStatement: { statement: label(`${CORE_RULE_SET}${name}`) },
                    })),
                  ],
                },
              },
              // ... and each known blocking label, whatever count-only label comes with it.
              anyLabel(CORE_RULE_SET, CORE_RULE_SET_BLOCKING),
            ],
          },
        },
        403,
        FIREWALL_BLOCKED_BODY,
      ),
    ];
    this.ruleMetricNames = rules
      .filter((rule) => rule.action !== undefined)
      .map((rule) => (rule.visibilityConfig as CfnWebACL.VisibilityConfigProperty).metricName);

    const jsonBody = (error: string): CfnWebACL.CustomResponseBodyProperty => ({
      contentType: 'APPLICATION_JSON',
      content: JSON.stringify({ success: false, error }),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclMetricName,
      description: 'Secrets Service API: per-credential and per-IP rate limits, IP reputation, AWS common rule set',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(this.webAclMetricName),
      // Sampled requests (and any logging) would otherwise keep every header as sent, a raw token or
      // session among them; data protection at the web ACL's level covers every output, the
      // per-credential rule's key in its rate-based details included.
      dataProtectionConfig: {
        dataProtections: [
          {
            field: { fieldType: 'SINGLE_HEADER', fieldKeys: ['authorization'] },
            action: 'SUBSTITUTION',
            excludeRateBasedDetails: false,
            excludeRuleMatchDetails: false,
          },
        ],
      },
      customResponseBodies: {
        [TOO_MANY_REQUESTS_BODY]: jsonBody(ErrorText.tooManyRequests),
        [FIREWALL_BLOCKED_BODY]: jsonBody(ErrorText.firewallBlocked),
      },
      rules,
    });

    new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
