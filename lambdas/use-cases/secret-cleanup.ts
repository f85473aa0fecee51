/** An item's primary key, as the store gives it. */
interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** What the cleanup of an expired secret reads and deletes. */
export interface ExpiredSecretStore {
  getSecretHeadByKey(key: ItemKey): Promise<{ readonly life: string } | undefined>;
  listVersionsOfAllLives(
    partition: string,
    name: string,
  ): Promise<readonly { readonly key: ItemKey; readonly life: string | undefined }[]>;
  deleteSecretVersions(keys: readonly ItemKey[]): Promise<void>;
}

/** A secret whose head DynamoDB's TTL removed: the head's key, its secrets partition and name. */
export interface ExpiredSecret {
  readonly key: ItemKey;
  readonly partition: string;
  readonly name: string;
}

/** What one cleanup did: the life kept (none when no head is there now), and the versions deleted and kept. */
export interface ExpiredSecretCleanup {
  readonly currentLife: string | null;
  readonly deleted: number;
  readonly kept: number;
}

/**
 * Deletes the versions a deleted secret leaves once its head has expired: those of every life but the
 * current head's (all of them when there is none now). The versions are listed before the head is read:
 * a head and the first version of its life are written in one transaction, so a version listed belongs
 * to a head the later (strongly consistent) read sees, and a secret written again in between never
 * loses its new versions. Safe to run again: what is gone stays gone.
 */
export const purgeExpiredSecretVersions = async (
  store: ExpiredSecretStore,
  secret: ExpiredSecret,
): Promise<ExpiredSecretCleanup> => {
  const versions = await store.listVersionsOfAllLives(secret.partition, secret.name);
  const head = await store.getSecretHeadByKey(secret.key);
  const ended = versions.filter((version) => head === undefined || version.life !== head.life);
  await store.deleteSecretVersions(ended.map((version) => version.key));
  return { currentLife: head?.life ?? null, deleted: ended.length, kept: versions.length - ended.length };
};
