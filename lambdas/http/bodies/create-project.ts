import { MAX_NAME_LENGTH } from '@contract/limits';
import { strictObject, trimmedString } from './checks';

/** Body of `POST /api/v1/projects`. */
export interface CreateProjectBody {
  name: string;
}

/** The checked body of `POST /api/v1/projects` (its schema: `createProjectBodySchema` in lib/api-schemas.ts). */
export const createProjectBody = strictObject<CreateProjectBody>({ name: trimmedString(1, MAX_NAME_LENGTH) });
