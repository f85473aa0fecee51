import { randomBase62 } from './token-format';

const PROJECT_ID_PATTERN = /^prj_[0-9A-Za-z]{16}$/;

/** A new project id: `prj_` + 16 random base62 characters. */
export const newProjectId = (): string => `prj_${randomBase62(16)}`;

/** Whether a string has the form of a project id (checked before any lookup). */
export const isProjectId = (candidate: string): boolean => PROJECT_ID_PATTERN.test(candidate);
