import { MAX_NAME_LENGTH, MAX_TTL_DAYS } from '@contract/limits';
import { type Scope, scopes } from '@contract/scopes';
import { oneOf, optionalInteger, strictObject, trimmedString, uniqueList } from './checks';

/** Body of `POST /api/v1/tokens`. */
export interface CreateTokenBody {
  name: string;
  scopes: Scope[];
  ttlDays?: number | null;
}

/** The checked body of `POST /api/v1/tokens` (its schema: `createTokenBodySchema` in lib/api-schemas.ts). */
export const createTokenBody = strictObject<CreateTokenBody>({
  name: trimmedString(1, MAX_NAME_LENGTH),
  scopes: uniqueList(oneOf(scopes), 'Scopes must be unique'),
  ttlDays: optionalInteger(1, MAX_TTL_DAYS),
});
