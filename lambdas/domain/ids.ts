import {
  PROJECT_ID_PREFIX,
  PROJECT_ID_RANDOM_LENGTH,
  SHARE_ID_PREFIX,
  SHARE_ID_RANDOM_LENGTH,
} from '@contract/identifiers';
import { type MintedToken, mintToken, randomBase62 } from './token-format';

/** A new project id: `prj_` + 16 random base62 characters. */
export const newProjectId = (): string => `${PROJECT_ID_PREFIX}${randomBase62(PROJECT_ID_RANDOM_LENGTH)}`;

/** A new share id: `shr_` + 22 random base62 characters. */
export const newShareId = (): string => `${SHARE_ID_PREFIX}${randomBase62(SHARE_ID_RANDOM_LENGTH)}`;

/** Where new ids and token secrets come from: random in the service, predictable fakes in unit tests. */
export interface Ids {
  newProjectId(): string;
  newShareId(): string;
  mintToken(): MintedToken;
}

/** The service's ids: random. */
export const randomIds: Ids = { newProjectId, newShareId, mintToken };
