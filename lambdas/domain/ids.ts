import { PROJECT_ID_PREFIX, PROJECT_ID_RANDOM_LENGTH } from '@contract/identifiers';
import { randomBase62 } from './token-format';

/** A new project id: `prj_` + 16 random base62 characters. */
export const newProjectId = (): string => `${PROJECT_ID_PREFIX}${randomBase62(PROJECT_ID_RANDOM_LENGTH)}`;
