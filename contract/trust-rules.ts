import * as z from 'zod/mini';
import { timestamp } from './instant';
import { typeError } from './schemas';

/**
 * A service account's trust rules: whom the service lets exchange a credential of their own for the
 * service account's access. An `oidc` rule trusts a workload's OpenID Connect ID token (a CI job's,
 * e.g. GitHub Actions'); an `aws` rule trusts IAM roles or users. These are the bodies the API takes and
 * answers; what cannot be saved beyond their shape (an `http` issuer, a subject of wildcards only) is
 * lambdas/domain/trust-rules.ts's `ruleProblem`, which knows the runtime's flags.
 */

/** The most trust rules one service account holds. */
export const MAX_TRUST_RULES = 10;

/** Prefix of a trust rule's id. */
export const TRUST_RULE_ID_PREFIX = 'tr_';
/** Random base62 characters after the prefix of a trust rule's id. */
export const TRUST_RULE_ID_RANDOM_LENGTH = 16;
/** A trust rule's id. */
export const TRUST_RULE_ID_PATTERN = new RegExp(`^${TRUST_RULE_ID_PREFIX}[0-9A-Za-z]{${TRUST_RULE_ID_RANDOM_LENGTH}}$`);

/** The most characters of an issuer URL. */
export const MAX_ISSUER_LENGTH = 512;
/** The most characters of an audience. */
export const MAX_AUDIENCE_LENGTH = 256;
/** The most characters of a subject (or subject pattern). */
export const MAX_SUBJECT_LENGTH = 512;
/** The most claims an `oidc` rule requires besides its subject. */
export const MAX_RULE_CLAIMS = 10;
/** The most characters of a required claim's name. */
export const MAX_CLAIM_NAME_LENGTH = 128;
/** The most characters of a required claim's value. */
export const MAX_CLAIM_VALUE_LENGTH = 512;
/** The most IAM principals an `aws` rule names. */
export const MAX_AWS_PRINCIPALS = 10;

/** GitHub Actions' OpenID Connect issuer, the default a rule is offered with. */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
/** The subjects GitHub Actions gives a job of `OWNER/REPO` on `main`, or in the `production` environment. */
export const githubActionsSubjects = (ownerRepo: string) =>
  ({
    mainBranch: `repo:${ownerRepo}:ref:refs/heads/main`,
    productionEnvironment: `repo:${ownerRepo}:environment:production`,
  }) as const;

/**
 * The form of an issuer URL before the runtime's flags are known: `https://` (or `http://`, which only
 * loopback in the local runtime passes: `issuerAllowed` in lambdas/domain/trust-rules.ts decides).
 */
export const ISSUER_SHAPE = /^https?:\/\/[^\s]+$/;

/**
 * A claim's name: visible ASCII, not `__proto__` (which would be the object's prototype, not a key).
 * Names such as `repository_owner`, `environment` or `https://example.com/team` pass.
 */
export const CLAIM_NAME_PATTERN = new RegExp(`^(?!__proto__$)[!-~]{1,${MAX_CLAIM_NAME_LENGTH}}$`);

/**
 * An IAM role (with its path) or user in any of the partitions `aws`, `aws-cn` and `aws-us-gov`:
 * `arn:aws:iam::123456789012:role/path/to/Name` or `arn:aws:iam::123456789012:user/Name`. IAM's name
 * characters only (`A-Z a-z 0-9 + = , . @ _ -`), so no wildcard.
 */
export const AWS_PRINCIPAL_PATTERN =
  /^arn:aws(?:-cn|-us-gov)?:iam::\d{12}:(?:role\/(?:[\w+=,.@-]{1,64}\/){0,16}[\w+=,.@-]{1,64}|user\/[\w+=,.@-]{1,64})$/;

/** Whether the local runtime's loopback `http` issuers are allowed (never in a deployed stack). */
export interface IssuerFlags {
  readonly allowLoopbackHttp: boolean;
}

/** The loopback hosts an `http` issuer may name in the local runtime, as written in the URL. */
const LOOPBACK_HTTP = /^http:\/\/(?:127\.0\.0\.1|\[::1\])(?::\d{1,5})?(?:\/|$)/i;

/**
 * Why an issuer (or a `jwks_uri`) URL is refused, in words, or null when it is allowed: an absolute
 * `https` URL of at most {@link MAX_ISSUER_LENGTH} characters, without user or password, query or
 * fragment, whose host is a name and not an IP literal in any form (URL parsing writes `2130706433`,
 * `0x7f.1` or `127.1` as `127.0.0.1`, and IPv6 in brackets, so the parsed host tells). With
 * `allowLoopbackHttp` (the local runtime), `http://127.0.0.1[:port]` and `http://[::1][:port]` too,
 * written so. Pure: no lookup (the service never resolves the name here).
 */
export const issuerProblem = (issuer: string, flags: IssuerFlags): string | null => {
  if (issuer.length > MAX_ISSUER_LENGTH) return `Use at most ${MAX_ISSUER_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'Give an absolute https URL';
  }
  if (url.username !== '' || url.password !== '') return 'Give a URL without a user or password';
  if (issuer.includes('?') || issuer.includes('#')) return 'Give a URL without a query or fragment';
  if (/\s/.test(issuer)) return 'Give a URL without spaces';
  const ipLiteral = url.hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol === 'http:') {
    const loopback =
      flags.allowLoopbackHttp && LOOPBACK_HTTP.test(issuer) && ['127.0.0.1', '[::1]'].includes(url.hostname);
    return loopback ? null : 'Use an https URL';
  }
  if (url.protocol !== 'https:') return 'Use an https URL';
  if (ipLiteral) return 'Use a host name, not an IP address';
  if (url.hostname === '') return 'Give a host';
  return null;
};

/** The rule of an issuer URL's form, as the API document says it. */
const ISSUER_RULE =
  'An https URL without user, query or fragment whose host is a name, not an IP address (e.g. https://token.actions.githubusercontent.com)';

const oidcFields = () => ({
  kind: z.literal('oidc'),
  issuer: z
    .string({ error: typeError('Give the issuer', 'An issuer is text') })
    .check(
      z.maxLength(MAX_ISSUER_LENGTH, `An issuer has at most ${MAX_ISSUER_LENGTH} characters`),
      z.regex(ISSUER_SHAPE, ISSUER_RULE),
      z.describe(`${ISSUER_RULE}; its token's \`iss\` must equal it exactly`),
    ),
  audience: z
    .string({ error: typeError('Give the audience', 'An audience is text') })
    .check(
      z.minLength(1, 'Give the audience: it is empty'),
      z.maxLength(MAX_AUDIENCE_LENGTH, `An audience has at most ${MAX_AUDIENCE_LENGTH} characters`),
      z.describe("The token's `aud` must be (or, as a list, contain) it"),
    ),
  subject: z
    .string({ error: typeError('Give the subject', 'A subject is text') })
    .check(
      z.minLength(1, 'Give the subject: it is empty'),
      z.maxLength(MAX_SUBJECT_LENGTH, `A subject has at most ${MAX_SUBJECT_LENGTH} characters`),
      z.describe(
        "The token's `sub`, exactly, or a pattern where `*` matches within one `:`-separated part (e.g. `repo:acme/*:ref:refs/heads/main`); not only `*` and `:`",
      ),
    ),
  claims: z.optional(
    z
      .record(
        z
          .string()
          .check(
            z.regex(CLAIM_NAME_PATTERN, `Name claims with 1 to ${MAX_CLAIM_NAME_LENGTH} visible ASCII characters`),
          ),
        z
          .string({ error: 'A claim value is text' })
          .check(z.maxLength(MAX_CLAIM_VALUE_LENGTH, `A claim value has at most ${MAX_CLAIM_VALUE_LENGTH} characters`)),
        { error: 'Send the claims as an object of names and text values, e.g. {"environment": "production"}' },
      )
      .check(
        z.refine((claims) => Object.keys(claims).length <= MAX_RULE_CLAIMS, {
          error: `Require at most ${MAX_RULE_CLAIMS} claims`,
        }),
        z.describe(
          `Up to ${MAX_RULE_CLAIMS} more claims the token must carry, each equal to its value as text (a list or object never matches)`,
        ),
      ),
  ),
});

const awsFields = () => ({
  kind: z.literal('aws'),
  principals: z
    .array(
      z
        .string({ error: 'A principal is text' })
        .check(
          z.regex(
            AWS_PRINCIPAL_PATTERN,
            'Use an IAM role or user ARN: arn:aws:iam::<12 digits>:role/<path and name> or arn:aws:iam::<12 digits>:user/<name>',
          ),
        ),
      { error: 'Give a list of IAM role or user ARNs' },
    )
    .check(
      z.minLength(1, 'Give at least one principal'),
      z.maxLength(MAX_AWS_PRINCIPALS, `Give at most ${MAX_AWS_PRINCIPALS} principals`),
      z.describe('The IAM roles or users trusted (partitions aws, aws-cn and aws-us-gov)'),
    ),
});

const KIND_ERROR = 'Give the kind of the rule: oidc or aws';

/** The body of a new trust rule: an `oidc` or an `aws` rule, told apart by `kind`, no other field. */
export const trustRuleBody = () =>
  z
    .discriminatedUnion('kind', [z.strictObject(oidcFields()), z.strictObject(awsFields())], { error: KIND_ERROR })
    .check(z.describe('A trust rule: an OpenID Connect workload (`oidc`) or IAM principals (`aws`)'));

/** An `oidc` trust rule as the use cases and the verifier read it. */
export type OidcRule = z.infer<ReturnType<typeof oidcRuleBody>>;
/** An `aws` trust rule. */
export type AwsRule = z.infer<ReturnType<typeof awsRuleBody>>;
/** A trust rule's body, either kind. */
export type TrustRuleBody = z.infer<ReturnType<typeof trustRuleBody>>;

/**
 * A new trust rule's body with the runtime's issuer rule too (`issuerProblem`): what a use case
 * validates a request with. The rules of lambdas/domain/trust-rules.ts's `ruleProblem` still apply.
 */
export const trustRuleBodyFor = (flags: IssuerFlags) =>
  trustRuleBody().check(
    z.refine((rule) => rule.kind !== 'oidc' || issuerProblem(rule.issuer, flags) === null, {
      path: ['issuer'],
      error: (issue) => {
        const input = issue.input as { issuer?: unknown } | undefined;
        return issuerProblem(String(input?.issuer ?? ''), flags) ?? ISSUER_RULE;
      },
    }),
  );

/** An `oidc` rule's body alone. */
export const oidcRuleBody = () => z.strictObject(oidcFields());
/** An `aws` rule's body alone. */
export const awsRuleBody = () => z.strictObject(awsFields());

const storedFields = () => ({
  id: z.string().check(z.regex(TRUST_RULE_ID_PATTERN), z.describe('`tr_` + 16 base62')),
  createdAt: timestamp(),
});

const buildStoredTrustRule = () =>
  z
    .discriminatedUnion('kind', [
      z.object({ ...storedFields(), ...oidcFields() }),
      z.object({ ...storedFields(), ...awsFields() }),
    ])
    .check(z.meta({ id: 'TrustRule' }), z.describe('A trust rule of a service account, as it was saved'));
let storedTrustRuleSchema: ReturnType<typeof buildStoredTrustRule> | undefined;

/** A stored trust rule as the API answers it: its id, the rule, and when it was made. */
export const storedTrustRule = () => {
  storedTrustRuleSchema ??= buildStoredTrustRule();
  return storedTrustRuleSchema;
};

/** A stored trust rule. */
export type StoredTrustRule = z.infer<ReturnType<typeof storedTrustRule>>;
