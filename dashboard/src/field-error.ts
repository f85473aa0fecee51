import type { ValidationDetail } from '@contract/errors';

/** The API's words about one field, one detail after another; undefined when it said nothing of it. */
export const fieldText = (details: readonly ValidationDetail[]): string | undefined =>
  details.length > 0 ? details.map((detail) => detail.message).join(' ') : undefined;

/** `aria-describedby` of a field: the ids given (its hint, its error while there is one), or none. */
export const describedBy = (...ids: readonly (string | false | undefined)[]): string | undefined => {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
};
