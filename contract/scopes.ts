/** The scopes an API token can carry. */
export const scopes = ['read:secrets', 'write:secrets', 'admin'] as const;

/** One API token scope. */
export type Scope = (typeof scopes)[number];

/** Whether a token holding `granted` may act where `required` is needed: `admin` grants every scope. */
export const hasScope = (granted: readonly string[], required: Scope): boolean =>
  granted.includes('admin') || granted.includes(required);
