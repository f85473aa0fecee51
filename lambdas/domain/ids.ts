import {
  PROJECT_ID_PREFIX,
  PROJECT_ID_RANDOM_LENGTH,
  SERVICE_ACCOUNT_ID_PREFIX,
  SERVICE_ACCOUNT_ID_RANDOM_LENGTH,
  SHARE_ID_PREFIX,
  SHARE_ID_RANDOM_LENGTH,
} from '@contract/identifiers';
import { type MintedToken, mintToken, randomBase62 } from './token-format';

/** A new project id: `prj_` + 16 random base62 characters. */
export const newProjectId = (): string => `${PROJECT_ID_PREFIX}${randomBase62(PROJECT_ID_RANDOM_LENGTH)}`;

/** A new share id: `shr_` + 22 random base62 characters. */
export const newShareId = (): string => `${SHARE_ID_PREFIX}${randomBase62(SHARE_ID_RANDOM_LENGTH)}`;

/** A new service account id: `sa_` + 16 random base62 characters. */
export const newServiceAccountId = (): string =>
  `${SERVICE_ACCOUNT_ID_PREFIX}${randomBase62(SERVICE_ACCOUNT_ID_RANDOM_LENGTH)}`;

/** Random characters of a life: a secret's (its versions are kept under it) or an environment's (keys.ts). */
const LIFE_LENGTH = 12;

/**
 * A new life id: of a secret, from its first write to the end of its delete's 30 days; of an
 * environment, from its creation to its delete, so that an environment made again under the same name
 * holds none of the secrets the earlier one left behind.
 */
export const newLife = (): string => randomBase62(LIFE_LENGTH);

/** Where new ids and token secrets come from: random in the service, predictable fakes in unit tests. */
export interface Ids {
  newProjectId(): string;
  newShareId(): string;
  mintToken(): MintedToken;
}

/** The service's ids: random. */
export const randomIds: Ids = { newProjectId, newShareId, mintToken };
