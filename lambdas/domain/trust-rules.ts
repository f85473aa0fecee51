import {
  type IssuerFlags,
  issuerProblem,
  MAX_AWS_PRINCIPALS,
  MAX_RULE_CLAIMS,
  TRUST_RULE_ID_PREFIX,
  TRUST_RULE_ID_RANDOM_LENGTH,
  type TrustRuleBody,
} from '@contract/trust-rules';
import { randomBase62 } from './token-format';

/*
 * The rules of a service account's trust rules, pure: which issuers may be trusted, how a subject
 * pattern matches, which claims a token must carry, and what makes a rule unfit to be saved. The
 * verification of a token itself (keys, signature, times) is lambdas/outbound/workload-oidc.ts.
 */

export type { IssuerFlags };

/** A new trust rule id: `tr_` + 16 random base62 characters. */
export const newTrustRuleId = (): string => `${TRUST_RULE_ID_PREFIX}${randomBase62(TRUST_RULE_ID_RANDOM_LENGTH)}`;

/**
 * Whether an issuer URL (or a discovery document's `jwks_uri`) may be fetched: `https` to a host name
 * (never an IP literal, in any form URL parsing reads), no user, query or fragment; `http` only to
 * `127.0.0.1` or `[::1]` (with a port), and only when the runtime allows it (`npm start`).
 */
export const issuerAllowed = (issuer: string, flags: IssuerFlags): boolean => issuerProblem(issuer, flags) === null;

/** Whether one `:`-free part matches a part of a pattern, where each `*` is any run of characters. */
const partMatches = (pattern: string, part: string): boolean => {
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  const last = pieces[pieces.length - 1] ?? '';
  if (pieces.length === 1) return pattern === part;
  if (part.length < first.length + last.length || !part.startsWith(first) || !part.endsWith(last)) return false;
  // The pieces between the stars, each found after the one before, leftmost first (which is enough).
  let at = first.length;
  const end = part.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = part.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
};

/**
 * Whether a token's subject matches a rule's: exactly, or where the rule has `*`, any run of characters
 * (possibly none) within that one `:`-separated part, so `repo:acme/*:ref:refs/heads/main` matches
 * `repo:acme/app:ref:refs/heads/main` but not `repo:acme/app:ref:refs/heads/main:x` nor
 * `repo:acme/a:b:ref:refs/heads/main`. Case-sensitive.
 */
export const subjectMatches = (pattern: string, subject: string): boolean => {
  if (!pattern.includes('*')) return pattern === subject;
  const patternParts = pattern.split(':');
  const subjectParts = subject.split(':');
  return (
    patternParts.length === subjectParts.length &&
    patternParts.every((part, index) => partMatches(part, subjectParts[index] ?? ''))
  );
};

/** Whether a subject pattern is made of `*` and `:` only (`*`, `*:*`), which any subject of its shape matches. */
export const isWildcardOnly = (pattern: string): boolean => /^[*:]*$/.test(pattern);

/**
 * The text a token's claim compares as: a string as it is, a finite number or a boolean as JSON writes
 * it; anything else (a list, an object, null) none, so it never matches.
 */
const claimText = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
};

/**
 * Whether a token's claims (its verified payload) carry every claim a rule requires, each equal to the
 * rule's value as text. Only the payload's own properties count (never `constructor` and the like).
 */
export const claimsMatch = (
  expected: Readonly<Record<string, string>> | undefined,
  payload: Readonly<Record<string, unknown>>,
): boolean =>
  Object.entries(expected ?? {}).every(
    ([name, value]) => Object.hasOwn(payload, name) && claimText(payload[name]) === value,
  );

/** Why a rule cannot be saved: the field at fault, and the reason in words for the caller's 400. */
export interface RuleProblem {
  readonly field: 'issuer' | 'audience' | 'subject' | 'claims' | 'principals';
  readonly message: string;
}

/**
 * Why a trust rule cannot be saved, or null when it can. Beyond the contract's shape: an issuer the
 * runtime may not fetch (`issuerAllowed`), an audience or subject of spaces only, a subject of wildcards
 * only, more than {@link MAX_RULE_CLAIMS} claims, and an `aws` rule naming a principal twice.
 */
export const ruleProblem = (rule: TrustRuleBody, flags: IssuerFlags): RuleProblem | null => {
  if (rule.kind === 'aws') {
    if (rule.principals.length === 0 || rule.principals.length > MAX_AWS_PRINCIPALS) {
      return { field: 'principals', message: `Give 1 to ${MAX_AWS_PRINCIPALS} principals` };
    }
    if (new Set(rule.principals).size !== rule.principals.length) {
      return { field: 'principals', message: 'Name each principal once' };
    }
    return null;
  }
  const issuer = issuerProblem(rule.issuer, flags);
  if (issuer !== null) return { field: 'issuer', message: issuer };
  if (rule.audience.trim() === '') return { field: 'audience', message: 'Give the audience: it is empty' };
  if (rule.subject.trim() === '') return { field: 'subject', message: 'Give the subject: it is empty' };
  if (isWildcardOnly(rule.subject)) {
    return {
      field: 'subject',
      message:
        'A subject of only * and : would trust every workload of the issuer: name the repository or project, e.g. repo:acme/app:ref:refs/heads/main',
    };
  }
  if (Object.keys(rule.claims ?? {}).length > MAX_RULE_CLAIMS) {
    return { field: 'claims', message: `Require at most ${MAX_RULE_CLAIMS} claims` };
  }
  return null;
};
