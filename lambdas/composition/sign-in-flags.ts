import type { IssuerFlags } from '@lambdas/domain/trust-rules';

/**
 * Whether an OIDC trust rule may name an `http` issuer on loopback (`http://127.0.0.1`, `http://[::1]`):
 * only where `npm start` runs, which sets `SIGN_IN_ALLOW_LOOPBACK=1` for its workload issuer, and never
 * inside Lambda, whatever its environment says.
 */
export const signInFlags = (env: NodeJS.ProcessEnv): IssuerFlags => ({
  allowLoopbackHttp: env.SIGN_IN_ALLOW_LOOPBACK === '1' && !env.AWS_LAMBDA_FUNCTION_NAME,
});
