import { CHANGE_REQUEST_ID_PATTERN, SECRET_NAME_PATTERN, SECRET_NAME_RULE } from '@contract/identifiers';
import { UsageError } from './errors';

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
