/**
 * Environment reading for module scope: fail fast with the variable's name. Deliberately not zod:
 * these few checks should not put a schema library on every cold start.
 */

/** A variable that must be set and non-empty. */
export const requiredEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} must be set`);
  return value;
};

/** A variable that, when set, must be an absolute http(s) URL. */
export const optionalUrlEnv = (name: string): string | undefined => {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^https?:\/\//.test(value) || !URL.canParse(value))
    throw new Error(`Environment variable ${name} must be a URL`);
  return value;
};

/** A variable that must be set to an absolute http(s) URL. */
export const requiredUrlEnv = (name: string): string => {
  const value = optionalUrlEnv(name);
  if (value === undefined) throw new Error(`Environment variable ${name} must be set`);
  return value;
};
