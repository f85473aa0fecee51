/** Longest e-mail address the service accepts (RFC 5321's limit on a forward path). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The form of an e-mail address: zod's own pattern (`z.regexes.email`), which the add-member body
 * schema is given too, so that a body and a path parameter judge an address alike.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** An e-mail address as the service keeps it, trimmed and lower-cased; `undefined` when it is none. */
export const normalizeEmail = (raw: string): string | undefined => {
  const email = raw.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email) ? email : undefined;
};
