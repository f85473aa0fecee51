import type { StoredSlotMap } from '@lambdas/domain/records';
import type { TableWrite } from './client';
import type { ItemKey } from './keys';

/*
 * A slot map: one item per person mapping each thing counted against a limit (tokens, shares) to its
 * expiry in epoch ms, with a version that every write of it checks, so that the limit holds under
 * concurrent writes. The writes name only the slots they change, so they do not grow with the map.
 */

export type { StoredSlotMap } from '@lambdas/domain/records';

/** The put of a person's first slot map (only if they have none yet). */
export const firstSlotMap = (key: ItemKey, entity: string, slots: ReadonlyMap<string, number>): TableWrite => ({
  Put: {
    Item: Object.assign({}, key, { entity, slots: Object.fromEntries(slots), version: 1 }),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The update of a slot map read at `stored.version`: `set` slots set, `freed` ones removed, the version moved on. */
export const slotMapUpdate = (
  key: ItemKey,
  stored: StoredSlotMap,
  set: ReadonlyMap<string, number>,
  freed: readonly string[],
): TableWrite => {
  const names: Record<string, string> = {};
  const values: Record<string, number> = { ':next': stored.version + 1, ':version': stored.version };
  const assignments = [...set].map(([id, expiry], index) => {
    names[`#set${index}`] = id;
    values[`:set${index}`] = expiry;
    return `slots.#set${index} = :set${index}`;
  });
  const removals = freed.map((id, index) => {
    names[`#freed${index}`] = id;
    return `slots.#freed${index}`;
  });
  return {
    Update: {
      Key: key,
      UpdateExpression: `SET ${[...assignments, 'version = :next'].join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/** The update that frees one slot, whatever the map's version (a revoke or a withdrawal), moving the version on. */
export const freeSlot = (key: ItemKey, id: string): TableWrite => ({
  Update: {
    Key: key,
    UpdateExpression: 'REMOVE slots.#id SET version = version + :one',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#id': id },
    ExpressionAttributeValues: { ':one': 1 },
  },
});
