/** Longest e-mail address the service accepts (RFC 5321's limit on a forward path). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The form of an e-mail address: zod's own pattern (`z.regexes.email`), which the add-member body
 * schema of the API document is given too, so that the document, a body and a path parameter judge
 * an address alike.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** An address as the service keeps it (trimmed and lower-cased), and which of the two rules it meets. */
export const readEmail = (raw: string): { email: string; wellFormed: boolean; withinLength: boolean } => {
  const email = raw.trim().toLowerCase();
  return { email, wellFormed: EMAIL_PATTERN.test(email), withinLength: email.length <= MAX_EMAIL_LENGTH };
};

/** An e-mail address as the service keeps it, trimmed and lower-cased; `undefined` when it is none. */
export const normalizeEmail = (raw: string): string | undefined => {
  const { email, wellFormed, withinLength } = readEmail(raw);
  return wellFormed && withinLength ? email : undefined;
};
