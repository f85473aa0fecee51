/**
 * Names of the service's own CloudWatch metrics, shared by the stack (dashboard, alarms) and the code
 * that publishes them. Plain constants with no CDK import, so a Lambda may import them too.
 */

/** Namespace of every custom metric of the service. */
export const METRICS_NAMESPACE = 'SecretsService';

/**
 * The service's name in every log line (`service`) and as the dimension `service` that Powertools
 * Metrics gives every metric the functions publish: a metric is identified by its whole dimension set,
 * so the stack's alarms and dashboard name it too.
 */
export const SERVICE_NAME = 'secrets-service';

/** The dimension every metric the functions publish carries, with the value {@link SERVICE_NAME}. */
export const SERVICE_DIMENSION = 'service';

/**
 * One count per authorizer decision, published by the authorizer (embedded metric format) with the
 * dimensions {@link SERVICE_DIMENSION} and {@link AUTHORIZER_DECISION_DIMENSION}.
 */
export const AUTHORIZER_DECISION_METRIC = 'AuthorizerDecision';

/** The dimension of {@link AUTHORIZER_DECISION_METRIC}. */
export const AUTHORIZER_DECISION_DIMENSION = 'outcome';

/** The values of {@link AUTHORIZER_DECISION_DIMENSION}. */
export const AUTHORIZER_DECISION_OUTCOMES = ['allowed', 'invalid', 'expired', 'wrong_ip', 'scope', 'resource'] as const;

/** An authorizer decision's outcome, as a metric dimension value. */
export type AuthorizerDecisionOutcome = (typeof AUTHORIZER_DECISION_OUTCOMES)[number];

/**
 * Requests API Gateway answered with AUTHORIZER_FAILURE or AUTHORIZER_CONFIGURATION_ERROR (the
 * authorizer crashed, timed out or could not reach DynamoDB or the JWKS), counted by a metric filter on
 * the stage's access log. No dimension.
 */
export const AUTHORIZER_FAILURES_METRIC = 'AuthorizerFailures';

/** Counts of successful state changes, one per route that makes one ({@link SERVICE_DIMENSION} only). */
export const TOKENS_CREATED_METRIC = 'TokensCreated';
export const TOKENS_REVOKED_METRIC = 'TokensRevoked';
export const TOKENS_ROTATED_METRIC = 'TokensRotated';
export const MEMBERS_ADDED_METRIC = 'MembersAdded';
export const MEMBERS_REMOVED_METRIC = 'MembersRemoved';
export const SERVICE_ACCOUNT_SIGNED_IN_METRIC = 'ServiceAccountSignIns';

/** One count per cold start of any function (Powertools' own metric), with the dimension {@link COLD_START_DIMENSION}. */
export const COLD_START_METRIC = 'ColdStart';

/** The function's name on its cold-start metric: the route's handler name, `authorizer`, or the background function's. */
export const COLD_START_DIMENSION = 'function_name';

/**
 * One count per `token.denied` audit event the authorizer writes (a token that exists, refused as
 * expired, from another address or for a missing scope), at most one per token, reason and minute,
 * published by the authorizer as a metric of its own with {@link SERVICE_DIMENSION} only (the
 * decision's carries `outcome` too, and a metric with another dimension set is another metric, which
 * the alarm would not see). Its alarm fires on a burst of denials in one minute (a leaked token).
 */
export const AUDIT_DENIAL_EVENTS_METRIC = 'TokenDenialEvents';
