import { ErrorText } from '@lambdas/domain/errors';
import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { WebAclMetrics } from './observability';

/** Properties of the {@link WebAcl}. */
export interface WebAclProps {
  /** The API stage the web ACL guards. */
  readonly stage: Stage;
  /** Requests one source IP may send per 5 minutes; more are answered 429. */
  readonly rateLimit: number;
}

/** The rate rule's evaluation window: the limit counts requests over the last 5 minutes. */
export const WAF_RATE_WINDOW_SECONDS = 300;

/** Key of the rate rule's custom response body. */
const TOO_MANY_REQUESTS_BODY = 'TooManyRequests';

/**
 * An AWS WAF web ACL (REGIONAL) in front of the API stage: AWS's IP-reputation list, a per-IP rate
 * limit, and AWS's common rule set, each with CloudWatch metrics and sampled requests. Requests no rule
 * blocks are allowed.
 *
 * The rate rule counts by the request's source IP as WAF sees it (the same address API Gateway passes
 * on as `sourceIp`), never a client header such as X-Forwarded-For, which a caller could set freely.
 */
export class WebAcl extends Construct implements WebAclMetrics {
  /** The web ACL. */
  readonly webAcl: CfnWebACL;
  readonly webAclMetricName: string;
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
    const managedRuleGroup = (
      name: string,
      priority: number,
      ruleActionOverrides?: CfnWebACL.RuleActionOverrideProperty[],
    ): CfnWebACL.RuleProperty => ({
      name: `AWS-${name}`,
      priority,
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ruleActionOverrides } },
      // Each rule of the group keeps the action AWS gives it (block), apart from the overrides.
      overrideAction: { none: {} },
      visibilityConfig: visibility(`AWS-${name}`),
    });

    const rules: CfnWebACL.RuleProperty[] = [
      // Cheapest first: known-bad addresses and floods are dropped before the common rule set inspects bodies.
      managedRuleGroup('AWSManagedRulesAmazonIpReputationList', 0),
      {
        name: 'PerIpRateLimit',
        priority: 1,
        statement: {
          rateBasedStatement: {
            limit: props.rateLimit,
            aggregateKeyType: 'IP',
            evaluationWindowSec: WAF_RATE_WINDOW_SECONDS,
          },
        },
        // The contract's 429 and body for too many requests, instead of WAF's bare 403.
        action: {
          block: { customResponse: { responseCode: 429, customResponseBodyKey: TOO_MANY_REQUESTS_BODY } },
        },
        visibilityConfig: visibility('PerIpRateLimit'),
      },
      managedRuleGroup('AWSManagedRulesCommonRuleSet', 2, [
        // The rule set blocks bodies over 8 KB; the API accepts up to 16 KiB and answers larger ones with
        // the contract's 413 itself, so this rule only counts.
        { name: 'SizeRestrictions_BODY', actionToUse: { count: {} } },
      ]),
    ];
    this.ruleMetricNames = rules.map(
      (rule) => (rule.visibilityConfig as CfnWebACL.VisibilityConfigProperty).metricName,
    );

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclMetricName,
      description: 'Secrets Service API: IP reputation, per-IP rate limit, AWS common rule set',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(this.webAclMetricName),
      customResponseBodies: {
        [TOO_MANY_REQUESTS_BODY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ success: false, error: ErrorText.tooManyRequests }),
        },
      },
      rules,
    });

    new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
