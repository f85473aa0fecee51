import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import {
  AUDIT_DENIAL_EVENTS_METRIC,
  AUTHORIZER_DECISION_DIMENSION,
  AUTHORIZER_DECISION_METRIC,
  type AuthorizerDecisionOutcome,
} from '@contract/service-metrics';
import { authorizerDeps, tokenMarks } from '@lambdas/composition/authorizer';
import { auditEvent, originOf, serviceAccountActor, userActor } from '@lambdas/domain/audit';
import { clock } from '@lambdas/domain/clock';
import { canonicalIp } from '@lambdas/domain/ip';
import { expiredContext, toAuthorizerContext } from '@lambdas/http/authorizer-context';
import { logger, metrics, tracer } from '@lambdas/observability';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorize, type Decision, type TokenDenial } from './authorize';
import { routeRules } from './route-rules';

/** `lastUsedAt` is written at most this often per token. */
const LAST_USED_INTERVAL_MS = 60_000;
/** A `token.denied` event is written at most this often per token and reason. */
const DENIAL_INTERVAL_MS = 60_000;

const authorizationValues = (event: APIGatewayRequestAuthorizerEvent): string[] => {
  const values: string[] = [];
  for (const [name, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (name.toLowerCase() === 'authorization') values.push(...(list ?? []));
  }
  if (values.length === 0) {
    for (const [name, value] of Object.entries(event.headers ?? {})) {
      if (name.toLowerCase() === 'authorization' && value !== undefined) values.push(value);
    }
  }
  return values;
};

const policy = (effect: 'Allow' | 'Deny', methodArn: string) => ({
  Version: '2012-10-17',
  Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: methodArn }],
});

/**
 * How API Gateway delivers each decision: a generic 401 is the thrown `Unauthorized` (gateway
 * response UNAUTHORIZED); a 403 is a Deny whose context carries the text (ACCESS_DENIED reads
 * `$context.authorizer.error`); an expired credential is let through with a context that holds no
 * identity, and the route answers its 401; anything thrown otherwise is AUTHORIZER_FAILURE (503).
 */
export const toAuthorizerResult = (decision: Decision, methodArn: string): APIGatewayAuthorizerResult => {
  switch (decision.outcome) {
    case 'allow':
      return {
        principalId: decision.principal.userId,
        policyDocument: policy('Allow', methodArn),
        context: toAuthorizerContext(decision.principal),
      };
    case 'expired':
      return { principalId: 'expired', policyDocument: policy('Allow', methodArn), context: expiredContext };
    case 'forbidden':
      return { principalId: 'denied', policyDocument: policy('Deny', methodArn), context: { error: decision.error } };
    case 'unauthorized':
      throw new Error('Unauthorized');
  }
};

/** The REQUEST authorizer: judges the credential of every request; fails closed. */
export const authorizerHandler = async (
  event: APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewayAuthorizerResult> => {
  const started = performance.now();
  const now = clock.now();
  const route = `${event.httpMethod} ${event.resource}`;
  const rule = routeRules.get(route);
  let decision: Decision;
  try {
    decision = await authorize(
      {
        authorization: authorizationValues(event),
        sourceIp: event.requestContext.identity.sourceIp,
        tokenScope: rule?.scope,
        serviceAccounts: rule?.serviceAccounts,
        resource: event.resource,
        pathParameters: event.pathParameters,
        now,
      },
      authorizerDeps,
    );
  } catch (error) {
    logger.warn('authorizer dependency unavailable', { requestId: event.requestContext.requestId, route, error });
    throw new Error('Service unavailable');
  }
  const principal = decision.outcome === 'allow' ? decision.principal : undefined;
  logger.info('authorizer decision', {
    requestId: event.requestContext.requestId,
    route,
    outcome: decisionOutcome(decision),
    rule: decision.outcome === 'allow' ? undefined : decision.rule,
    principal: principal?.kind,
    userId: principal?.userId,
    tokenId: principal?.tokenId,
    latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
  });
  metrics.captureColdStartMetric('authorizer');
  const counted = metrics.singleMetric();
  counted.addDimension(AUTHORIZER_DECISION_DIMENSION, decisionOutcome(decision));
  counted.addMetric(AUTHORIZER_DECISION_METRIC, MetricUnit.Count, 1);
  if (decision.outcome === 'allow' && decision.principal.tokenId && isUseDue(decision.tokenLastUsedAt, now)) {
    await recordTokenUse(decision.principal.tokenId, now, event.requestContext.identity.sourceIp);
  }
  if (decision.outcome !== 'allow' && decision.outcome !== 'unauthorized' && decision.denied) {
    await recordDenial(decision.denied, event, now);
  }
  return toAuthorizerResult(decision, event.methodArn);
};

/** The decision as the dashboard's `outcome` dimension. */
const decisionOutcome = (decision: Decision): AuthorizerDecisionOutcome => {
  if (decision.outcome === 'allow') return 'allowed';
  if (decision.outcome === 'unauthorized') return 'invalid';
  if (decision.outcome === 'expired') return 'expired';
  if (decision.rule === 'token-ip') return 'wrong_ip';
  return decision.rule === 'token-resource' ? 'resource' : 'scope';
};

const isUseDue = (lastUsedAt: string | null | undefined, now: Date): boolean =>
  !lastUsedAt || now.getTime() - Date.parse(lastUsedAt) >= LAST_USED_INTERVAL_MS;

const recordTokenUse = async (tokenId: string, now: Date, sourceIp: string): Promise<void> => {
  try {
    await tokenMarks.touchTokenLastUsed(tokenId, now, LAST_USED_INTERVAL_MS, canonicalIp(sourceIp) ?? sourceIp);
  } catch (error) {
    logger.warn('lastUsedAt not recorded', { tokenId, error });
  }
};

/**
 * Records the refusal of a genuine token in its owner's trail, at most once per token, reason and
 * minute. A failure to record is logged and never changes the answer: the refusal stands.
 */
const recordDenial = async (denial: TokenDenial, event: APIGatewayRequestAuthorizerEvent, now: Date): Promise<void> => {
  const { identity, requestId } = event.requestContext;
  const machine = denial.serviceAccount;
  const recorded = auditEvent(
    machine ? 'service_account.denied' : 'token.denied',
    originOf(
      machine
        ? serviceAccountActor(denial.userId, machine.name, denial.tokenId, null)
        : userActor(denial.userId, denial.ownerEmail, 'token', denial.tokenId),
      { sourceIp: identity.sourceIp, userAgent: identity.userAgent, requestId },
    ),
    now,
    machine
      ? { tokenId: denial.tokenId, projectId: machine.projectId, serviceAccountId: denial.userId }
      : { tokenId: denial.tokenId },
    { reason: denial.reason },
  );
  try {
    if (await tokenMarks.recordTokenDenial(denial, recorded, now, DENIAL_INTERVAL_MS)) {
      logger.info('token denial recorded', { requestId, tokenId: denial.tokenId, reason: denial.reason });
      metrics.singleMetric().addMetric(AUDIT_DENIAL_EVENTS_METRIC, MetricUnit.Count, 1);
    }
  } catch (error) {
    logger.warn('token denial not recorded', { tokenId: denial.tokenId, error });
  }
};

/**
 * The deployed handler: its invocation traced (never its answer, which names the user) and its log
 * lines carrying the Lambda context.
 */
export const handler = middy(authorizerHandler)
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(injectLambdaContext(logger));
