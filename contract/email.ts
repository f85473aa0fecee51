/** Longest e-mail address the service accepts (RFC 5321's limit on a forward path). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The service's one e-mail rule, for sessions, the add-member body and the remove-member path alike:
 * after trimming, printable ASCII only (no whitespace or control character) with exactly one `@`
 * between non-empty parts. It is judged before lower-casing: `toLowerCase` maps some non-ASCII
 * letters to ASCII ones (KELVIN SIGN to `k`), so an address judged afterwards could pass for another.
 */
export const EMAIL_PATTERN = /^[!-?A-~]+@[!-?A-~]+$/;

/** An e-mail address as the service keeps it, trimmed and lower-cased; `undefined` when it breaks the rule. */
export const normalizeEmail = (raw: string): string | undefined => {
  const trimmed = raw.trim();
  return EMAIL_PATTERN.test(trimmed) && trimmed.length <= MAX_EMAIL_LENGTH ? trimmed.toLowerCase() : undefined;
};
