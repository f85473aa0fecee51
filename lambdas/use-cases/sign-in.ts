import type { AuditEvent, SignInRefusal } from '@contract/audit';
import { SERVICE_ACCOUNT_ID_PATTERN } from '@contract/identifiers';
import { SIGN_IN_TTL_SECONDS } from '@contract/service-account-routes';
import type { AwsRule, OidcRule, StoredTrustRule } from '@contract/trust-rules';
import { auditEvent, type RequestOrigin, serviceAccountActor } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { IdentityNotAcceptedError } from '@lambdas/domain/errors';
import type { Ids } from '@lambdas/domain/ids';
import { creatingAddress } from '@lambdas/domain/ip';
import type { ServiceAccountRecord, TokenRecord, TrustRulesRecord } from '@lambdas/domain/records';

/** What proving a workload's identity answers: who it is (`issuer#subject`, or an ARN), or why not. */
export type ProofVerdict =
  | { readonly accepted: true; readonly subject: string }
  | { readonly accepted: false; readonly reason: SignInRefusal };

/** What the sign-ins read and write, and how they check a proof (the OIDC verifier, STS). */
export interface SignInPorts {
  getTrustRules(serviceAccountId: string): Promise<TrustRulesRecord | undefined>;
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccountRecord | undefined>;
  /** Stores the token (its hash) with its event while the service account exists; false once deleted. */
  recordSignIn(token: TokenRecord, projectId: string, event: AuditEvent): Promise<boolean>;
  /** Records a refusal with its event, at most once a minute per service account and reason. */
  recordRefusal(
    serviceAccountId: string,
    projectId: string,
    reason: SignInRefusal,
    event: AuditEvent,
    now: Date,
  ): Promise<boolean>;
  verifyOidc(token: string, rules: readonly OidcRule[], now: Date): Promise<ProofVerdict>;
  verifyAws(
    request: { headers: unknown; body: unknown },
    rules: readonly AwsRule[],
    host: string,
  ): Promise<ProofVerdict>;
  readonly ids: Pick<Ids, 'mintToken'>;
}

/** A sign-in request: the service account, the token's life, and the proof of one kind. */
export type SignInRequest = { readonly serviceAccountId: string; readonly ttlSeconds?: number } & (
  | { readonly kind: 'oidc'; readonly token: string }
  | {
      readonly kind: 'aws';
      readonly request: { readonly headers: unknown; readonly body: unknown };
      readonly host: string;
    }
);

/**
 * Signing in as a service account without a stored secret: a workload proves who it is (an OIDC token
 * of its platform, or a signed `sts:GetCallerIdentity`), one of the service account's trust rules of
 * that kind must accept it, and the answer is a `svc_live_` token of the service account's that lives
 * minutes, works from the signing-in address only, and is stored as its hash alone. One token format
 * and one authorizer path for every credential: the authorizer judges it as a static token of the
 * service account (its access, its life read on every use), and deleting the service account stops it
 * at once. Every refusal is the same 401; the reason goes to the log and, for a service account that
 * exists, to a `service_account.denied` event.
 */
export const signInUseCases = (ports: SignInPorts) => ({
  signIn: async (request: SignInRequest, origin: RequestOrigin, now: Date) => {
    const refuse = (reason: SignInRefusal): never => {
      throw new IdentityNotAcceptedError(reason);
    };
    const { serviceAccountId } = request;
    if (!SERVICE_ACCOUNT_ID_PATTERN.test(serviceAccountId)) refuse('no-rule');
    const trust = await ports.getTrustRules(serviceAccountId);
    const serviceAccount = trust && (await ports.getServiceAccount(trust.projectId, serviceAccountId));
    if (!trust || !serviceAccount) return refuse('no-rule');
    const actor = (subject: string | null, tokenId: string | null) =>
      serviceAccountActor(serviceAccountId, serviceAccount.name, tokenId, subject);
    const target = { projectId: trust.projectId, serviceAccountId };
    const refuseRecorded = async (reason: SignInRefusal): Promise<never> => {
      const event = auditEvent('service_account.denied', { ...origin, actor: actor(null, null) }, now, target, {
        reason,
      });
      await ports.recordRefusal(serviceAccountId, trust.projectId, reason, event, now);
      return refuse(reason);
    };
    const oidcRules = trust.rules.filter(
      (rule): rule is Extract<StoredTrustRule, { kind: 'oidc' }> => rule.kind === 'oidc',
    );
    const awsRules = trust.rules.filter(
      (rule): rule is Extract<StoredTrustRule, { kind: 'aws' }> => rule.kind === 'aws',
    );
    if ((request.kind === 'oidc' ? oidcRules : awsRules).length === 0) return refuseRecorded('no-rule');
    const verdict =
      request.kind === 'oidc'
        ? await ports.verifyOidc(request.token, oidcRules, now)
        : await ports.verifyAws(request.request, awsRules, request.host);
    if (!verdict.accepted) return refuseRecorded(verdict.reason);
    const boundIp = creatingAddress(origin.sourceIp);
    if (!boundIp) return refuse('malformed');
    const minted = ports.ids.mintToken();
    const expiresAt = toIso(new Date(now.getTime() + (request.ttlSeconds ?? SIGN_IN_TTL_SECONDS.default) * 1000));
    const token: TokenRecord = {
      tokenId: minted.tokenId,
      userId: serviceAccountId,
      name: `${request.kind} sign-in`,
      scopes: [],
      secretHash: minted.hash,
      boundIp,
      displayPrefix: minted.displayPrefix,
      createdAt: toIso(now),
      expiresAt,
      lastUsedAt: null,
      serviceAccountProject: trust.projectId,
      subject: verdict.subject,
    };
    const event = auditEvent(
      'service_account.signed_in',
      { ...origin, actor: actor(verdict.subject, token.tokenId) },
      now,
      { ...target, tokenId: token.tokenId },
      { expiresAt },
    );
    if (!(await ports.recordSignIn(token, trust.projectId, event))) return refuse('no-rule');
    return { token: minted.rawToken, expiresAt };
  },
});
