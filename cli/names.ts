import { CHANGE_REQUEST_ID_PATTERN, SECRET_NAME_PATTERN, SECRET_NAME_RULE } from '@contract/identifiers';
import { CommandError, UsageError } from './errors';

/** A secret's name as the API's rule allows it, checked before anything is sent, in the API's words. */
export const secretName = (name: string): string => {
  if (!SECRET_NAME_PATTERN.test(name))
    throw new UsageError(`${JSON.stringify(name)} is not a secret name: ${SECRET_NAME_RULE}`);
  return name;
};

/** A change request's id of the API's form (`chg_…`), checked before anything is sent. */
export const changeRequestId = (id: string): string => {
  if (!CHANGE_REQUEST_ID_PATTERN.test(id))
    throw new UsageError(`${JSON.stringify(id)} is not a change request id (chg_…)`);
  return id;
};

/**
 * Secrets as the service (or a snapshot of its answer) gave them, each name checked against the
 * secret-name rule and each value to be text before any is injected or written: a hostile server's
 * `A=B` or `PATH\nX` would otherwise set another variable than the one it names, or a line of its own.
 */
export const servedSecrets = (values: Readonly<Record<string, unknown>>): Record<string, string> => {
  for (const [name, value] of Object.entries(values)) {
    if (!SECRET_NAME_PATTERN.test(name)) {
      throw new CommandError(
        `the service answered a name that is no secret's name, ${JSON.stringify(name.slice(0, 130))}: nothing was run or written`,
      );
    }
    if (typeof value !== 'string') {
      throw new CommandError(`the service answered a value of ${name} that is not text: nothing was run or written`);
    }
  }
  return values as Record<string, string>;
};
